/// Errors of the GAEN cryptography layer.
public enum GAENError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidHex(field: String, value: String)
    case invalidLength(field: String, expected: Int, actual: Int)
    case invalidRollingPeriod(Int)
    case outputBufferTooSmall(needed: Int, available: Int)
    case openSSL(String)

    public var description: String {
        switch self {
        case let .invalidHex(field, value):
            return "\(field): '\(value)' is not valid hex"
        case let .invalidLength(field, expected, actual):
            return "\(field): expected \(expected) bytes, got \(actual)"
        case let .invalidRollingPeriod(period):
            return "rolling period \(period) is outside 1…144"
        case let .outputBufferTooSmall(needed, available):
            return "output buffer holds \(available) RPIs, \(needed) needed"
        case let .openSSL(message):
            return "OpenSSL: \(message)"
        }
    }
}

/// Why a key export file (zip with export.bin and export.sig) was rejected.
public enum ExportFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case notAZipArchive
    case missingEntry(String)
    case unreadableEntry(String)
    case entryTooLarge(String, limit: Int)
    case wrongHeader(found: [UInt8])
    case malformedExport(String)
    case malformedSignatureList(String)
    case noSignatures
    case unsupportedSignatureAlgorithm(String)
    case malformedSignature
    case badSignature
    case invalidKeyLength(index: Int, length: Int)
    case missingKeyField(index: Int, field: String)
    case invalidRollingPeriod(index: Int, value: Int32)
    case invalidPEM(String)
    case fieldOutOfRange(field: String, value: String)

    public var description: String {
        switch self {
        case .notAZipArchive:
            return "not a zip archive (corrupt or truncated)"
        case let .missingEntry(name):
            return "archive has no '\(name)' entry"
        case let .unreadableEntry(name):
            return "entry '\(name)' cannot be extracted (corrupt archive)"
        case let .entryTooLarge(name, limit):
            return "entry '\(name)' inflates to more than \(limit >> 20) MiB, far beyond any real key export (refused unread)"
        case let .wrongHeader(found):
            let shown = String(decoding: found.map { (0x20..<0x7f).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            return "export.bin does not start with the 16-byte header 'EK Export v1' (found '\(shown)')"
        case let .malformedExport(reason):
            return "export.bin protobuf is truncated or malformed: \(reason)"
        case let .malformedSignatureList(reason):
            return "export.sig protobuf is truncated or malformed: \(reason)"
        case .noSignatures:
            return "export.sig holds no signature"
        case let .unsupportedSignatureAlgorithm(oid):
            return "unsupported signature algorithm '\(oid)' (only ECDSA P-256 SHA-256, 1.2.840.10045.4.3.2)"
        case .malformedSignature:
            return "export.sig signature is not a DER-encoded ECDSA signature"
        case .badSignature:
            return "signature does not verify with the given public key"
        case let .invalidKeyLength(index, length):
            return "key \(index): key_data has \(length) bytes, expected 16"
        case let .missingKeyField(index, field):
            return "key \(index): missing \(field)"
        case let .invalidRollingPeriod(index, value):
            return "key \(index): rolling_period \(value) is outside 1…144"
        case let .invalidPEM(reason):
            return "invalid P-256 PEM key: \(reason)"
        case let .fieldOutOfRange(field, value):
            return "\(field) \(value) is out of range"
        }
    }
}
