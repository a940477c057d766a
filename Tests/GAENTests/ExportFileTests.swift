import Crypto
import Foundation
import Testing
import ZIPFoundation
@testable import GAEN

private func hex(_ text: String) -> [UInt8] { HexCoding.decode(text)! }

private func makeKey(_ keyHex: String, start: UInt32 = 2_642_976, period: UInt32 = 144, trl: Int32? = 3,
                     type: ReportType? = .confirmedTest, dsos: Int32? = -2) -> DiagnosisKey {
    DiagnosisKey(try! TemporaryExposureKey(keyData: Bytes16(hex: keyHex)!,
                                           rollingStartIntervalNumber: ENIntervalNumber(start), rollingPeriod: period),
                 transmissionRiskLevel: trl, reportType: type, daysSinceOnsetOfSymptoms: dsos)
}

private let sampleKeys = [
    makeKey("ff000000000000000000000000000001"),
    makeKey("75c734c6dd1a782de7a965da5eb93125", start: 2_643_120, period: 100, trl: nil, type: .selfReport, dsos: nil),
    makeKey("00000000000000000000000000000002", trl: 8, type: nil, dsos: 14),
]

private let info = SignatureInfo(verificationKeyVersion: "v1", verificationKeyID: "222")

/// Protobuf varint, for hand-assembling bytes.
private func varint(_ value: UInt64) -> [UInt8] {
    var v = value, out: [UInt8] = []
    repeat {
        let low = UInt8(v & 0x7f); v >>= 7
        out.append(v == 0 ? low : low | 0x80)
    } while v != 0
    return out
}
private func lengthDelimited(_ field: UInt64, _ payload: [UInt8]) -> [UInt8] {
    varint(field << 3 | 2) + varint(UInt64(payload.count)) + payload
}
private func fixed64(_ field: UInt64, _ value: UInt64) -> [UInt8] {
    varint(field << 3 | 1) + withUnsafeBytes(of: value.littleEndian) { Array($0) }
}
private func varintField(_ field: UInt64, _ value: UInt64) -> [UInt8] { varint(field << 3) + varint(value) }

@Suite("Key export files")
struct ExportFileTests {
    let signingKey = ExportSigningKey()

    func builder(order: ExportKeyOrder = .sortedByKeyData) -> ExportBuilder {
        ExportBuilder(signingKey: signingKey, signatureInfo: info, keyOrder: order)
    }

    func sampleArchive() throws -> Data {
        try builder().archive(keys: sampleKeys, region: "222", batchNumber: 1, batchSize: 1,
                              startTimestamp: 1_585_785_600, endTimestamp: 1_585_872_000)
    }

    @Test func roundTripVerifiesAndSortsKeys() throws {
        let zip = try sampleArchive()
        let export = try ExportReader.read(archive: zip, verifyingWith: signingKey.verificationKey)
        #expect(export.region == "222")
        #expect(export.startTimestamp == 1_585_785_600 && export.endTimestamp == 1_585_872_000)
        #expect(export.batchNumber == 1 && export.batchSize == 1)
        #expect(export.signatureInfos == [info])
        let expectedOrder = sampleKeys.sorted { $0.temporaryExposureKey.keyData < $1.temporaryExposureKey.keyData }
        #expect(export.keys == expectedOrder)
        #expect(export.keys.first?.temporaryExposureKey.keyData.hex == "00000000000000000000000000000002")
        // Optional fields stay absent, not zero.
        #expect(export.keys[1].transmissionRiskLevel == nil && export.keys[1].daysSinceOnsetOfSymptoms == nil)
        #expect(export.keys[0].reportType == nil)
    }

    @Test func callerOrderKept() throws {
        let zip = try builder(order: .asGiven).archive(keys: sampleKeys, region: "DE", startTimestamp: 1, endTimestamp: 2)
        let parsed = try ExportReader.parse(archive: zip)
        #expect(parsed.export.keys == sampleKeys)
        #expect(parsed.signatures.count == 1)
        #expect(parsed.signatures[0].signatureInfo == info)
        try parsed.verifySignature(with: signingKey.verificationKey)
    }

    @Test func zipEntriesInOrder() throws {
        let zip = try sampleArchive()
        // Local file headers: export.bin must come first.
        let text = String(decoding: zip, as: UTF8.self)
        let bin = try #require(text.range(of: "export.bin")), sig = try #require(text.range(of: "export.sig"))
        #expect(bin.lowerBound < sig.lowerBound)
        #expect(zip.prefix(4) == Data([0x50, 0x4b, 0x03, 0x04]))
    }

    /// export.bin and export.sig assembled byte by byte from the published format,
    /// independently of the writer.
    @Test func readsHandAssembledFile() throws {
        let keyBytes = hex("75c734c6dd1a782de7a965da5eb93125")
        let key: [UInt8] = lengthDelimited(1, keyBytes)
            + varintField(2, 5)                       // transmission_risk_level 5
            + varintField(3, 2_642_976)               // rolling_start_interval_number
            + varintField(4, 144)                     // rolling_period
            + varintField(5, 1)                       // CONFIRMED_TEST
            + varintField(6, 3)                       // days_since_onset -2, zigzag-encoded as 3
        let signatureInfo: [UInt8] = lengthDelimited(3, Array("v1".utf8))
            + lengthDelimited(4, Array("222".utf8))
            + lengthDelimited(5, Array("1.2.840.10045.4.3.2".utf8))
        let body: [UInt8] = fixed64(1, 1_585_785_600) + fixed64(2, 1_585_872_000)
            + lengthDelimited(3, Array("222".utf8)) + varintField(4, 1) + varintField(5, 1)
            + lengthDelimited(6, signatureInfo) + lengthDelimited(7, key)
        let header: [UInt8] = hex("454b204578706f7274207631") + [0x20, 0x20, 0x20, 0x20]
        let bin = Data(header + body)

        let privateKey = P256.Signing.PrivateKey()
        let der = try privateKey.signature(for: bin).derRepresentation
        let teksig: [UInt8] = lengthDelimited(1, signatureInfo) + varintField(2, 1) + varintField(3, 1)
            + lengthDelimited(4, Array(der))
        let sig = Data(lengthDelimited(1, teksig))
        let zip = try ExportBuilder.zip([("export.bin", bin), ("export.sig", sig)], modificationDate: Date())

        let export = try ExportReader.read(archive: zip, verifyingWith: ExportVerificationKey(publicKey: privateKey.publicKey))
        let expectedKey = makeKey("75c734c6dd1a782de7a965da5eb93125", trl: 5, type: .confirmedTest, dsos: -2)
        #expect(export.keys == [expectedKey])
        #expect(export.region == "222" && export.batchNumber == 1 && export.batchSize == 1)
        #expect(export.signatureInfos == [info])

        // And the writer produces exactly these bytes for the same content.
        let written = try ExportBinary.encode(KeyExport(startTimestamp: 1_585_785_600, endTimestamp: 1_585_872_000,
                                                        region: "222", signatureInfos: [info], keys: [expectedKey]))
        #expect(written == bin)
    }

    @Test func rejectsMissingEntries() throws {
        let parsed = try ExportReader.parse(archive: try sampleArchive())
        let sig = try builder().signatureList(for: parsed.binary, batchNumber: 1, batchSize: 1)
        let onlyBin = try ExportBuilder.zip([("export.bin", parsed.binary)], modificationDate: Date())
        let onlySig = try ExportBuilder.zip([("export.sig", sig)], modificationDate: Date())
        #expect(throws: ExportFileError.missingEntry("export.sig")) { try ExportReader.parse(archive: onlyBin) }
        #expect(throws: ExportFileError.missingEntry("export.bin")) { try ExportReader.parse(archive: onlySig) }
    }

    @Test func rejectsWrongHeader() throws {
        var bin = try ExportBinary.encode(KeyExport(startTimestamp: 1, endTimestamp: 2, region: "DE", keys: sampleKeys))
        bin[11] = UInt8(ascii: "2")  // "EK Export v2"
        #expect(throws: ExportFileError.wrongHeader(found: Array("EK Export v2    ".utf8))) { try ExportBinary.decode(bin) }
        #expect(throws: ExportFileError.wrongHeader(found: Array("EK".utf8))) { try ExportBinary.decode(Data("EK".utf8)) }
        // Zero padding, as some old documents say, is not what real files carry.
        var zeroPadded = Data("EK Export v1".utf8) + Data(count: 4)
        zeroPadded.append(bin.dropFirst(16))
        #expect(throws: ExportFileError.self) { try ExportBinary.decode(zeroPadded) }
    }

    @Test func rejectsTruncatedAndMalformedProtobuf() throws {
        let bin = try ExportBinary.encode(KeyExport(startTimestamp: 1, endTimestamp: 2, region: "DE", keys: sampleKeys))
        for cut in [bin.count - 1, bin.count - 10, 20] {
            #expect(throws: ExportFileError.self) { try ExportBinary.decode(bin.prefix(cut)) }
            do { _ = try ExportBinary.decode(bin.prefix(cut)) } catch {
                guard case .malformedExport = error else { Issue.record("cut \(cut): \(error)"); continue }
            }
        }
        // Field 7 claims 200 bytes, the file ends after 2; and a wire type 7 that does not exist.
        let badLength = Data(ExportBinary.header + [0x3a, 0xc8, 0x01, 0x0a, 0x10])
        let badWireType = Data(ExportBinary.header + [0x3f, 0x00])
        for data in [badLength, badWireType] {
            do { _ = try ExportBinary.decode(data); Issue.record("accepted malformed protobuf") } catch {
                guard case .malformedExport = error else { Issue.record("\(error)"); continue }
                #expect(error.description.contains("export.bin protobuf"))
            }
        }
        #expect(throws: ExportFileError.self) { try ExportReader.decodeSignatures(Data([0x0a, 0x05, 0x01])) }
    }

    @Test func rejectsKeysWithWrongLength() throws {
        for length in [0, 15, 17, 32] {
            let key = lengthDelimited(1, [UInt8](repeating: 0xab, count: length)) + varintField(3, 2_642_976)
            let bin = Data(ExportBinary.header + lengthDelimited(3, Array("DE".utf8)) + lengthDelimited(7, key))
            #expect(throws: ExportFileError.invalidKeyLength(index: 0, length: length)) { try ExportBinary.decode(bin) }
        }
        let noData = Data(ExportBinary.header + lengthDelimited(7, varintField(3, 1)))
        #expect(throws: ExportFileError.missingKeyField(index: 0, field: "key_data")) { try ExportBinary.decode(noData) }
        let badPeriod = Data(ExportBinary.header + lengthDelimited(7, lengthDelimited(1, [UInt8](repeating: 1, count: 16))
                                                                     + varintField(3, 1) + varintField(4, 145)))
        #expect(throws: ExportFileError.invalidRollingPeriod(index: 0, value: 145)) { try ExportBinary.decode(badPeriod) }
    }

    @Test func rejectsBadSignature() throws {
        let zip = try sampleArchive()
        let otherKey = ExportSigningKey().verificationKey
        #expect(throws: ExportFileError.badSignature) { try ExportReader.read(archive: zip, verifyingWith: otherKey) }

        // Same signature over a tampered export.bin (one key byte flipped).
        let parsed = try ExportReader.parse(archive: zip)
        var tampered = parsed.binary
        tampered[tampered.count - 20] ^= 0x01
        let sig = try builder().signatureList(for: parsed.binary, batchNumber: 1, batchSize: 1)
        let tamperedZip = try ExportBuilder.zip([("export.bin", tampered), ("export.sig", sig)], modificationDate: Date())
        #expect(throws: ExportFileError.badSignature) {
            try ExportReader.read(archive: tamperedZip, verifyingWith: signingKey.verificationKey)
        }

        // Signature bytes that are not DER at all; and an empty signature list.
        var list = try ExportReader.decodeSignatures(sig)
        list[0].signature = Data([1, 2, 3])
        var garbled = parsed
        garbled.signatures = list
        #expect(throws: ExportFileError.malformedSignature) { try garbled.verifySignature(with: signingKey.verificationKey) }
        garbled.signatures = []
        #expect(throws: ExportFileError.noSignatures) { try garbled.verifySignature(with: signingKey.verificationKey) }
        garbled.signatures = [ExportSignature(signatureInfo: SignatureInfo(verificationKeyID: "x", signatureAlgorithm: "1.2.840.10045.4.3.4"),
                                              batchNumber: 1, batchSize: 1, signature: list[0].signature)]
        #expect(throws: ExportFileError.unsupportedSignatureAlgorithm("1.2.840.10045.4.3.4")) {
            try garbled.verifySignature(with: signingKey.verificationKey)
        }
    }

    @Test func rejectsCorruptZip() throws {
        let zip = try sampleArchive()
        #expect(throws: ExportFileError.notAZipArchive) { try ExportReader.parse(archive: Data("not a zip".utf8)) }
        #expect(throws: ExportFileError.notAZipArchive) { try ExportReader.parse(archive: Data()) }
        #expect(throws: ExportFileError.self) { try ExportReader.parse(archive: zip.prefix(zip.count / 2)) }
        // Flip bytes inside the compressed export.bin: CRC or inflate fails, or the content is rejected.
        var corrupt = zip
        for offset in 40..<60 { corrupt[offset] ^= 0x5a }
        #expect(throws: ExportFileError.self) { try ExportReader.read(archive: corrupt, verifyingWith: signingKey.verificationKey) }
    }

    @Test func pemRoundTrip() throws {
        let key = ExportSigningKey()
        let restored = try ExportSigningKey(pemRepresentation: key.pemRepresentation)
        #expect(restored.privateKey.rawRepresentation == key.privateKey.rawRepresentation)
        #expect(key.pemRepresentation.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let publicPEM = key.verificationKey.pemRepresentation
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let publicKey = try ExportVerificationKey(pemRepresentation: publicPEM)
        let message = Data("export".utf8)
        #expect(try publicKey.isValidSignature(try restored.signature(for: message), for: message))
        #expect(throws: ExportFileError.self) { try ExportSigningKey(pemRepresentation: "garbage") }
        #expect(throws: ExportFileError.self) { try ExportVerificationKey(pemRepresentation: key.pemRepresentation) }
    }

    @Test func errorsReadWell() {
        #expect(ExportFileError.missingEntry("export.sig").description == "archive has no 'export.sig' entry")
        #expect(ExportFileError.invalidKeyLength(index: 2, length: 15).description == "key 2: key_data has 15 bytes, expected 16")
        #expect(ExportFileError.wrongHeader(found: Array("EK Export v2\0\0\0\0".utf8)).description.contains("EK Export v2????"))
    }

    /// A zip bomb (a tiny archive whose export.bin inflates past the limit) is refused while
    /// inflating, without holding more than the limit in memory.
    @Test func zipBombIsRefusedAtTheLimit() throws {
        let archive = try Archive(accessMode: .create)
        let size = Int64(ExportReader.maxEntryBytes) + 1_048_576
        let chunk = Data(count: 1 << 20)
        for name in [ExportBinary.binEntryName, ExportBinary.signatureEntryName] {
            try archive.addEntry(with: name, type: .file, uncompressedSize: name == ExportBinary.binEntryName ? size : 4,
                                 compressionMethod: .deflate) { position, count in
                name == ExportBinary.binEntryName ? chunk.prefix(count) : Data(count: count)
            }
        }
        let zip = try #require(archive.data)
        #expect(zip.count < 200_000, "the bomb should be small: \(zip.count) bytes")
        #expect(throws: ExportFileError.entryTooLarge(ExportBinary.binEntryName, limit: ExportReader.maxEntryBytes)) {
            _ = try ExportReader.parse(archive: zip)
        }
    }
}
