import Crypto
import CryptoExtras
import Foundation

/// Rolling Proximity Identifier: the 16 bytes a phone broadcasts during one interval.
/// Two words, so a matcher can hash and compare them cheaply.
public struct RollingProximityIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var value: Bytes16

    public init(_ value: Bytes16) { self.value = value }

    public init?(hex: String) {
        guard let value = Bytes16(hex: hex) else { return nil }
        self.value = value
    }

    public var bytes: [UInt8] { value.bytes }
    public var hex: String { value.hex }
    public var description: String { value.hex }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.value < rhs.value }
}

/// RPIK = HKDF-SHA256(TEK, salt none, info "EN-RPIK", 16 bytes).
public struct RollingProximityIdentifierKey: Hashable, Sendable {
    static let hkdfInfo = "EN-RPIK"

    public var keyData: Bytes16

    public init(keyData: Bytes16) { self.keyData = keyData }

    public init(temporaryExposureKey: TemporaryExposureKey) {
        self.keyData = ENKeyDerivation.derive16(from: temporaryExposureKey.keyData, info: Self.hkdfInfo)
    }

    /// PaddedData = "EN-RPI" ‖ six 0x00 ‖ ENIN as 4-byte little endian.
    public static func paddedData(for interval: ENIntervalNumber) -> Bytes16 {
        var block = paddedDataTemplate
        withUnsafeMutableBytes(of: &block) { raw in
            raw.storeBytes(of: interval.rawValue.littleEndian, toByteOffset: 12, as: UInt32.self)
        }
        return block
    }

    /// "EN-RPI" followed by ten zero bytes; only the last four change per interval.
    static let paddedDataTemplate: Bytes16 = {
        var bytes = Array("EN-RPI".utf8)
        bytes += [UInt8](repeating: 0, count: 10)
        return Bytes16(bytes: bytes)!
    }()

    /// Reference path, one AES block through swift-crypto (re-runs the key schedule per call).
    /// Matching uses `BatchRPIDeriver`; tests hold the two paths equal.
    public func identifier(at interval: ENIntervalNumber) -> RollingProximityIdentifier {
        var block = Self.paddedData(for: interval).bytes
        let key = keyData.bytes.withUnsafeBytes { SymmetricKey(data: $0) }
        // A 16-byte block and a 16-byte key are exactly what permute requires; it cannot throw here.
        try! AES.permute(&block, key: key)
        return RollingProximityIdentifier(Bytes16(bytes: block)!)
    }
}
