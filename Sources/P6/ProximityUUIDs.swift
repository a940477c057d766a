import Foundation

/// The 8 iBeacon proximity UUIDs monitored and transmitted by P6.
///
/// The seed document does not fix the values; these are ENSim's own choice
/// (fixed, arbitrary, version-4 style). UUID number `i` carries part `i`
/// (bytes `4i ..< 4i+4`) of the current 256-bit frame code.
public enum P6ProximityUUID {
    public static let strings: [String] = [
        "F6E1A000-5E3D-4C6B-9A1E-7D0C2B8E6000",
        "F6E1A001-5E3D-4C6B-9A1E-7D0C2B8E6001",
        "F6E1A002-5E3D-4C6B-9A1E-7D0C2B8E6002",
        "F6E1A003-5E3D-4C6B-9A1E-7D0C2B8E6003",
        "F6E1A004-5E3D-4C6B-9A1E-7D0C2B8E6004",
        "F6E1A005-5E3D-4C6B-9A1E-7D0C2B8E6005",
        "F6E1A006-5E3D-4C6B-9A1E-7D0C2B8E6006",
        "F6E1A007-5E3D-4C6B-9A1E-7D0C2B8E6007",
    ]

    /// Parsed UUIDs, index = part (slice) number 0...7.
    public static let all: [UUID] = strings.map { UUID(uuidString: $0)! }

    /// Index (0...7) of a P6 proximity UUID, nil for any other UUID.
    public static func index(of uuid: UUID) -> Int? { all.firstIndex(of: uuid) }
}
