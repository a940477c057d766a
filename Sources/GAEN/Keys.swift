import Crypto
import Foundation

/// ENIntervalNumber: Unix time divided by 600 (ten-minute intervals), as a 32-bit number.
public struct ENIntervalNumber: Hashable, Comparable, Sendable, CustomStringConvertible {
    public static let secondsPerInterval: Int64 = 600

    public var rawValue: UInt32

    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    /// Interval containing `unixTime` (seconds since 1970, UTC). Times before 1970 clamp to 0.
    public init(unixTime: Int64) {
        self.rawValue = UInt32(truncatingIfNeeded: max(0, unixTime) / Self.secondsPerInterval)
    }

    public init(date: Date) {
        self.init(unixTime: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Unix time of the start of this interval.
    public var unixTime: Int64 { Int64(rawValue) * Self.secondsPerInterval }

    /// First interval of the UTC day containing this one (keys normally start there).
    public var startOfDay: ENIntervalNumber {
        ENIntervalNumber(rawValue - rawValue % TemporaryExposureKey.defaultRollingPeriod)
    }

    public func advanced(by intervals: Int) -> ENIntervalNumber {
        ENIntervalNumber(UInt32(truncatingIfNeeded: Int(rawValue) + intervals))
    }

    public static func < (lhs: ENIntervalNumber, rhs: ENIntervalNumber) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(rawValue) }
}

/// Temporary Exposure Key: 16 random bytes valid from `rollingStartIntervalNumber`
/// for `rollingPeriod` ten-minute intervals (144 = one day).
public struct TemporaryExposureKey: Hashable, Sendable {
    public static let keyLength = 16
    public static let defaultRollingPeriod: UInt32 = 144

    public var keyData: Bytes16
    public var rollingStartIntervalNumber: ENIntervalNumber
    public var rollingPeriod: UInt32

    /// - Throws: `GAENError.invalidRollingPeriod` unless 1 ≤ rollingPeriod ≤ 144.
    public init(keyData: Bytes16, rollingStartIntervalNumber: ENIntervalNumber,
                rollingPeriod: UInt32 = TemporaryExposureKey.defaultRollingPeriod) throws(GAENError) {
        guard (1...Self.defaultRollingPeriod).contains(rollingPeriod) else {
            throw .invalidRollingPeriod(Int(rollingPeriod))
        }
        self.keyData = keyData
        self.rollingStartIntervalNumber = rollingStartIntervalNumber
        self.rollingPeriod = rollingPeriod
    }

    /// A fresh key from the system's secure generator.
    public static func generate(rollingStartIntervalNumber: ENIntervalNumber) -> TemporaryExposureKey {
        var rng = SystemRandomNumberGenerator()
        return generate(rollingStartIntervalNumber: rollingStartIntervalNumber, using: &rng)
    }

    /// A key from `generator` (reproducible simulation runs pass a seeded generator).
    public static func generate<G: RandomNumberGenerator>(rollingStartIntervalNumber: ENIntervalNumber,
                                                          using generator: inout G) -> TemporaryExposureKey {
        // The rolling period is the valid constant, so the throwing init cannot fail here.
        try! TemporaryExposureKey(keyData: .random(using: &generator),
                                  rollingStartIntervalNumber: rollingStartIntervalNumber)
    }

    /// Intervals this key covers.
    public var intervals: Range<UInt32> {
        rollingStartIntervalNumber.rawValue..<(rollingStartIntervalNumber.rawValue + rollingPeriod)
    }

    public var rollingProximityIdentifierKey: RollingProximityIdentifierKey {
        RollingProximityIdentifierKey(temporaryExposureKey: self)
    }

    public var associatedEncryptedMetadataKey: AssociatedEncryptedMetadataKey {
        AssociatedEncryptedMetadataKey(temporaryExposureKey: self)
    }
}

/// HKDF-SHA256 with no salt and 16 bytes of output, as both EN sub-keys are derived.
enum ENKeyDerivation {
    static func derive16(from key: Bytes16, info: String) -> Bytes16 {
        let derived = key.bytes.withUnsafeBytes { ikm in
            HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: ikm),
                                   info: Data(info.utf8), outputByteCount: 16)
        }
        return derived.withUnsafeBytes { Bytes16(bytes: $0)! }
    }
}
