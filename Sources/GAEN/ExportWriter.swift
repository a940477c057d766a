import Foundation
import SwiftProtobuf
import ZIPFoundation

/// Order of keys inside export.bin.
public enum ExportKeyOrder: Sendable {
    /// Unsigned lexicographic order of key_data, as the Google and CWA servers do, so the
    /// order leaks nothing about who uploaded which key.
    case sortedByKeyData
    /// Exactly as given (e.g. when the caller already shuffled).
    case asGiven
}

/// Builds signed key export archives in memory: export.bin, export.sig, zipped.
public struct ExportBuilder: Sendable {
    public var signingKey: ExportSigningKey
    public var signatureInfo: SignatureInfo
    public var keyOrder: ExportKeyOrder
    /// Stamped on the zip entries; fixed by default so equal input gives equal zip framing.
    public var modificationDate: Date

    public init(signingKey: ExportSigningKey, signatureInfo: SignatureInfo,
                keyOrder: ExportKeyOrder = .sortedByKeyData,
                modificationDate: Date = Date(timeIntervalSince1970: 1_577_836_800)) {
        self.signingKey = signingKey
        self.signatureInfo = signatureInfo
        self.keyOrder = keyOrder
        self.modificationDate = modificationDate
    }

    /// The zip archive (export.bin then export.sig) for `keys`, as bytes.
    public func archive(keys: [DiagnosisKey], region: String, batchNumber: Int32 = 1, batchSize: Int32 = 1,
                        startTimestamp: UInt64, endTimestamp: UInt64) throws -> Data {
        let export = KeyExport(startTimestamp: startTimestamp, endTimestamp: endTimestamp, region: region,
                               batchNumber: batchNumber, batchSize: batchSize, signatureInfos: [signatureInfo],
                               keys: keys)
        return try archive(export)
    }

    /// Signs and zips `export` (keys reordered per `keyOrder`).
    public func archive(_ export: KeyExport) throws -> Data {
        var export = export
        if keyOrder == .sortedByKeyData {
            export.keys.sort { $0.temporaryExposureKey.keyData < $1.temporaryExposureKey.keyData }
            export.revisedKeys.sort { $0.temporaryExposureKey.keyData < $1.temporaryExposureKey.keyData }
        }
        let bin = try ExportBinary.encode(export)
        let sig = try signatureList(for: bin, batchNumber: export.batchNumber, batchSize: export.batchSize)
        return try Self.zip([(ExportBinary.binEntryName, bin), (ExportBinary.signatureEntryName, sig)],
                            modificationDate: modificationDate)
    }

    /// export.sig: a TEKSignatureList with one signature over the whole export.bin.
    public func signatureList(for bin: Data, batchNumber: Int32, batchSize: Int32) throws -> Data {
        var signature = ProtoTEKSignature()
        signature.signatureInfo = signatureInfo.proto
        signature.batchNum = batchNumber
        signature.batchSize = batchSize
        signature.signature = try signingKey.signature(for: bin)
        var list = ProtoTEKSignatureList()
        list.signatures = [signature]
        return try list.serializedData()
    }

    /// A zip holding `entries` in order, deflated like the real servers' files.
    static func zip(_ entries: [(name: String, data: Data)], modificationDate: Date) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for entry in entries {
            try archive.addEntry(with: entry.name, type: .file, uncompressedSize: Int64(entry.data.count),
                                 modificationDate: modificationDate, compressionMethod: .deflate) { position, size in
                entry.data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        guard let data = archive.data else { throw ExportFileError.notAZipArchive }
        return data
    }
}
