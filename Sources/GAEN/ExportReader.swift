import Foundation
import SwiftProtobuf
import ZIPFoundation

/// One signature from export.sig.
public struct ExportSignature: Hashable, Sendable {
    public var signatureInfo: SignatureInfo
    public var batchNumber: Int32
    public var batchSize: Int32
    /// DER-encoded ECDSA signature.
    public var signature: Data
}

/// A parsed export archive whose signature has not necessarily been checked.
public struct ParsedExport: Sendable {
    public var export: KeyExport
    public var signatures: [ExportSignature]
    /// export.bin exactly as in the archive: the signed bytes.
    public var binary: Data

    /// Succeeds if one signature with the ECDSA P-256 SHA-256 algorithm verifies with `key`.
    public func verifySignature(with key: ExportVerificationKey) throws(ExportFileError) {
        guard !signatures.isEmpty else { throw .noSignatures }
        var lastError = ExportFileError.badSignature
        for signature in signatures {
            guard signature.signatureInfo.signatureAlgorithm == SignatureInfo.ecdsaP256SHA256OID else {
                lastError = .unsupportedSignatureAlgorithm(signature.signatureInfo.signatureAlgorithm)
                continue
            }
            do {
                if try key.isValidSignature(signature.signature, for: binary) { return }
                lastError = .badSignature
            } catch {
                lastError = error
            }
        }
        throw lastError
    }
}

/// Reads key export archives; every defect is an `ExportFileError`, never a crash.
public enum ExportReader {
    /// Most bytes an entry may inflate to. A key record is ~30 bytes of protobuf, so 32 MiB holds
    /// over a million keys: ~50× Corona-Warn-App's daily files of autumn 2020 (14,000–19,000 keys,
    /// as iOS's exposure-check log showed). A zip bomb is stopped here, while streaming, whatever
    /// size its header claims.
    public static let maxEntryBytes = 32 << 20

    /// Reads and verifies: the usual entry point for an app downloading keys.
    public static func read(archive: Data, verifyingWith key: ExportVerificationKey) throws(ExportFileError) -> KeyExport {
        let parsed = try parse(archive: archive)
        try parsed.verifySignature(with: key)
        return parsed.export
    }

    /// Unzips and decodes both entries without checking the signature.
    public static func parse(archive data: Data) throws(ExportFileError) -> ParsedExport {
        let archive: Archive
        do { archive = try Archive(data: data, accessMode: .read) } catch { throw .notAZipArchive }
        let bin = try extract(ExportBinary.binEntryName, from: archive)
        let sig = try extract(ExportBinary.signatureEntryName, from: archive)
        let export = try ExportBinary.decode(bin)
        return ParsedExport(export: export, signatures: try decodeSignatures(sig), binary: bin)
    }

    static func decodeSignatures(_ data: Data) throws(ExportFileError) -> [ExportSignature] {
        let list: ProtoTEKSignatureList
        do { list = try ProtoTEKSignatureList(serializedBytes: Array(data)) } catch {
            throw .malformedSignatureList(String(describing: error))
        }
        return list.signatures.map {
            ExportSignature(signatureInfo: SignatureInfo(proto: $0.signatureInfo), batchNumber: $0.batchNum,
                            batchSize: $0.batchSize, signature: $0.signature)
        }
    }

    private static func extract(_ name: String, from archive: Archive) throws(ExportFileError) -> Data {
        guard let entry = archive[name] else { throw .missingEntry(name) }
        guard entry.uncompressedSize <= maxEntryBytes else { throw .entryTooLarge(name, limit: maxEntryBytes) }
        struct TooLarge: Error {}
        var data = Data()
        do {
            // The header may lie: count what actually inflates, chunk by chunk.
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                guard data.count + chunk.count <= maxEntryBytes else { throw TooLarge() }
                data.append(chunk)
            }
        } catch is TooLarge {
            throw .entryTooLarge(name, limit: maxEntryBytes)
        } catch {
            throw .unreadableEntry(name)
        }
        return data
    }
}
