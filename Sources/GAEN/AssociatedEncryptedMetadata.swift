import Crypto
import CryptoExtras
import Foundation

/// The four metadata bytes hidden in the AEM: version, transmit power, two reserved bytes.
public struct BluetoothMetadata: Hashable, Sendable {
    /// Version 1.0: major version in bits 7–6, minor in bits 5–4.
    public static let version1_0: UInt8 = 0x40

    public var versionByte: UInt8
    /// Calibrated transmit power in dBm (a signed byte on the wire).
    public var transmitPowerDBm: Int8
    public var reserved1: UInt8
    public var reserved2: UInt8

    public init(versionByte: UInt8 = BluetoothMetadata.version1_0, transmitPowerDBm: Int8,
                reserved1: UInt8 = 0, reserved2: UInt8 = 0) {
        self.versionByte = versionByte
        self.transmitPowerDBm = transmitPowerDBm
        self.reserved1 = reserved1
        self.reserved2 = reserved2
    }

    public init(bytes: [UInt8]) throws(GAENError) {
        guard bytes.count == 4 else { throw .invalidLength(field: "metadata", expected: 4, actual: bytes.count) }
        self.init(versionByte: bytes[0], transmitPowerDBm: Int8(bitPattern: bytes[1]),
                  reserved1: bytes[2], reserved2: bytes[3])
    }

    public var bytes: [UInt8] { [versionByte, UInt8(bitPattern: transmitPowerDBm), reserved1, reserved2] }
}

/// Associated Encrypted Metadata: four bytes, the metadata under AES-128-CTR.
public struct AssociatedEncryptedMetadata: Hashable, Sendable, CustomStringConvertible {
    /// The four bytes read as a big-endian number (first byte most significant).
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public init(bytes: [UInt8]) throws(GAENError) {
        guard bytes.count == 4 else { throw .invalidLength(field: "AEM", expected: 4, actual: bytes.count) }
        self.rawValue = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    public var bytes: [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * $0)) } }
    public var hex: String { HexCoding.encode(bytes) }
    public var description: String { hex }
}

/// AEMK = HKDF-SHA256(TEK, salt none, info "EN-AEMK", 16 bytes).
public struct AssociatedEncryptedMetadataKey: Hashable, Sendable {
    static let hkdfInfo = "EN-AEMK"

    public var keyData: Bytes16

    public init(keyData: Bytes16) { self.keyData = keyData }

    public init(temporaryExposureKey: TemporaryExposureKey) {
        self.keyData = ENKeyDerivation.derive16(from: temporaryExposureKey.keyData, info: Self.hkdfInfo)
    }

    /// AEM = AES-128-CTR(AEMK, IV = RPI, metadata).
    public func encrypt(_ metadata: BluetoothMetadata, identifier: RollingProximityIdentifier) -> AssociatedEncryptedMetadata {
        let out = ctr(metadata.bytes, identifier: identifier)
        return try! AssociatedEncryptedMetadata(bytes: out)
    }

    /// CTR is its own inverse: the receiver decrypts with the RPI it heard.
    public func decrypt(_ aem: AssociatedEncryptedMetadata, identifier: RollingProximityIdentifier) -> BluetoothMetadata {
        try! BluetoothMetadata(bytes: ctr(aem.bytes, identifier: identifier))
    }

    private func ctr(_ input: [UInt8], identifier: RollingProximityIdentifier) -> [UInt8] {
        let key = keyData.bytes.withUnsafeBytes { SymmetricKey(data: $0) }
        // 16-byte key and 16-byte IV are valid by construction, so these cannot throw.
        let nonce = try! AES._CTR.Nonce(nonceBytes: identifier.bytes)
        return Array(try! AES._CTR.encrypt(input, using: key, nonce: nonce))
    }
}

extension TemporaryExposureKey {
    /// RPI and AEM broadcast at `interval` (reference path; see `BatchRPIDeriver` for bulk RPIs).
    public func advertisement(at interval: ENIntervalNumber, metadata: BluetoothMetadata)
        -> (identifier: RollingProximityIdentifier, metadata: AssociatedEncryptedMetadata) {
        let rpi = rollingProximityIdentifierKey.identifier(at: interval)
        return (rpi, associatedEncryptedMetadataKey.encrypt(metadata, identifier: rpi))
    }
}
