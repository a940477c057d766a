import ArgumentParser
import Foundation
import GAEN
import HealthBackend
import Reporting

/// `ensim gaen …`: tools on the GAEN protocol library.
struct GaenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gaen",
        abstract: "Exposure Notification protocol tools: derive RPIs, inspect and build key export files.",
        subcommands: [GaenDerive.self, GaenInspect.self, GaenExport.self, GaenKeygen.self]
    )
}

// MARK: - derive

struct GaenDerive: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "derive",
        abstract: "Print ENIN, RPI and AEM (hex) of a TEK, one line per interval.",
        discussion: "Example (the official test vector): ensim gaen derive --tek 75c734c6dd1a782de7a965da5eb93125 --enin 2642976 --count 3"
    )

    @Option(help: "Temporary Exposure Key, 32 hex digits.")
    var tek: String

    @Option(help: "First ENIntervalNumber (Unix time / 600).")
    var enin: String

    @Option(help: "Number of intervals (1…144).")
    var count: String = "144"

    @Option(parsing: .unconditional, help: "Transmit power in dBm written into the metadata (-128…127).")
    var txPower: String = "8"

    @Option(help: "Metadata version byte, 2 hex digits.")
    var metadataVersion: String = "40"

    @Flag(help: "Print JSON instead of text lines.")
    var json = false

    func run() throws {
        guard let keyData = Bytes16(hex: tek) else {
            throw Console.failure("--tek: expected 32 hex digits (16 bytes), got '\(tek)'")
        }
        guard let first = UInt32(enin) else { throw Console.failure("--enin: '\(enin)' is not an interval number (0…\(UInt32.max))") }
        guard let intervals = Int(count), (1...144).contains(intervals) else {
            throw Console.failure("--count: '\(count)' is not an integer in 1…144")
        }
        guard let power = Int8(txPower) else { throw Console.failure("--tx-power: '\(txPower)' is not an integer in -128…127") }
        guard let versionBytes = HexCoding.decode(metadataVersion), versionBytes.count == 1 else {
            throw Console.failure("--metadata-version: expected 2 hex digits, got '\(metadataVersion)'")
        }
        guard UInt64(first) + UInt64(intervals) - 1 <= UInt64(UInt32.max) else {
            throw Console.failure("--enin: \(first) + \(intervals) intervals overflows 32 bits")
        }
        let key = try TemporaryExposureKey(keyData: keyData, rollingStartIntervalNumber: ENIntervalNumber(first),
                                           rollingPeriod: UInt32(intervals))
        let metadata = BluetoothMetadata(versionByte: versionBytes[0], transmitPowerDBm: power)
        let rpis = try BatchRPIDeriver().identifiers(of: key)
        let aemk = key.associatedEncryptedMetadataKey

        var rows: [[String: Any]] = []
        var lines: [String] = []
        for (offset, rpi) in rpis.enumerated() {
            let interval = first + UInt32(offset)
            let aem = aemk.encrypt(metadata, identifier: rpi)
            if json {
                rows.append(["enin": Int(interval), "rpi": rpi.hex, "aem": aem.hex])
            } else {
                lines.append("\(interval) \(rpi.hex) \(aem.hex)")
            }
        }
        if json {
            let document: [String: Any] = [
                "tek": keyData.hex,
                "rpik": key.rollingProximityIdentifierKey.keyData.hex,
                "aemk": aemk.keyData.hex,
                "metadata": HexCoding.encode(metadata.bytes),
                "intervals": rows,
            ]
            print(try gaenJSONString(document))
        } else {
            print(lines.joined(separator: "\n"))
        }
    }
}

// MARK: - inspect

struct GaenInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the header fields and keys of a key export zip and check its signature.",
        discussion: "Exits with status 1 if --public-key is given and no signature verifies."
    )

    @Argument(help: "Key export archive (zip with export.bin and export.sig).")
    var file: String

    @Option(help: "P-256 public key PEM to verify the signature with.")
    var publicKey: String?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() throws {
        let archive = try gaenReadFile(file)
        let verificationKey = try publicKey.map { path in
            do { return try ExportVerificationKey(pemRepresentation: String(decoding: try gaenReadFile(path), as: UTF8.self)) }
            catch let error as ExportFileError { throw Console.failure("\(path): \(error)") }
        }
        let parsed: ParsedExport
        do { parsed = try ExportReader.parse(archive: archive) } catch { throw Console.failure("\(file): \(error)") }

        var signatureError: ExportFileError?
        let status: String
        if let verificationKey {
            do {
                try parsed.verifySignature(with: verificationKey)
                status = "verified"
            } catch {
                signatureError = error
                status = "invalid: \(error)"
            }
        } else {
            status = "not checked (no --public-key)"
        }

        let export = parsed.export
        if json {
            let document: [String: Any] = [
                "file": file,
                "start_timestamp": export.startTimestamp,
                "end_timestamp": export.endTimestamp,
                "region": export.region,
                "batch_num": Int(export.batchNumber),
                "batch_size": Int(export.batchSize),
                "signature_infos": export.signatureInfos.map(gaenJSON),
                "signatures": parsed.signatures.map { ["signature_info": gaenJSON($0.signatureInfo),
                                                        "batch_num": Int($0.batchNumber), "batch_size": Int($0.batchSize),
                                                        "signature": HexCoding.encode($0.signature)] as [String: Any] },
                "signature_verified": verificationKey == nil ? NSNull() : (signatureError == nil) as Any,
                "signature_status": status,
                "keys": export.keys.map(gaenJSON),
                "revised_keys": export.revisedKeys.map(gaenJSON),
            ]
            print(try gaenJSONString(document))
        } else {
            var out = ["file: \(file)",
                       "region: \(export.region)",
                       "start_timestamp: \(export.startTimestamp) (\(gaenISODate(export.startTimestamp)))",
                       "end_timestamp: \(export.endTimestamp) (\(gaenISODate(export.endTimestamp)))",
                       "batch: \(export.batchNumber) of \(export.batchSize)"]
            for info in export.signatureInfos {
                out.append("signature_info: key_version=\(info.verificationKeyVersion) key_id=\(info.verificationKeyID) algorithm=\(info.signatureAlgorithm)")
            }
            out.append("signatures: \(parsed.signatures.count)")
            out.append("signature: \(status)")
            out.append("keys: \(export.keys.count)")
            if !export.revisedKeys.isEmpty { out.append("revised_keys: \(export.revisedKeys.count)") }
            out.append(gaenKeyTableHeader)
            out += export.keys.map(gaenKeyTableRow)
            if !export.revisedKeys.isEmpty {
                out.append("revised:")
                out += export.revisedKeys.map(gaenKeyTableRow)
            }
            print(out.joined(separator: "\n"))
        }
        if let signatureError { throw Console.failure("\(file): \(signatureError)") }
    }
}

private let gaenKeyTableHeader =
    "key_data                          rolling_start  rolling_period  trl  report_type                   days_since_onset"

private func gaenKeyTableRow(_ key: DiagnosisKey) -> String {
    func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) }
    let tek = key.temporaryExposureKey
    return [pad(tek.keyData.hex, 34), pad(String(tek.rollingStartIntervalNumber.rawValue), 15),
            pad(String(tek.rollingPeriod), 16), pad(key.transmissionRiskLevel.map(String.init) ?? "-", 5),
            pad(key.reportType.map(\.csvName) ?? "-", 30),
            key.daysSinceOnsetOfSymptoms.map(String.init) ?? "-"].joined()
}

private func gaenJSON(_ info: SignatureInfo) -> [String: Any] {
    ["verification_key_version": info.verificationKeyVersion, "verification_key_id": info.verificationKeyID,
     "signature_algorithm": info.signatureAlgorithm]
}

private func gaenJSON(_ key: DiagnosisKey) -> [String: Any] {
    var row: [String: Any] = [
        "key_data": key.temporaryExposureKey.keyData.hex,
        "rolling_start_interval_number": Int(key.temporaryExposureKey.rollingStartIntervalNumber.rawValue),
        "rolling_period": Int(key.temporaryExposureKey.rollingPeriod),
    ]
    if let trl = key.transmissionRiskLevel { row["transmission_risk_level"] = Int(trl) }
    if let type = key.reportType { row["report_type"] = type.csvName }
    if let dsos = key.daysSinceOnsetOfSymptoms { row["days_since_onset"] = Int(dsos) }
    return row
}

private func gaenISODate(_ unixSeconds: UInt64) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unixSeconds)))
}

// MARK: - shared helpers

func gaenReadFile(_ path: String, limit: Int = 64 << 20) throws -> Data {
    // A regular file of bounded size: not a directory, FIFO or device (a FIFO would block, /dev/zero never end).
    var info = stat()
    guard stat(path, &info) == 0 else {
        throw Console.failure("\(path): \(errno == ENOENT ? "no such file" : String(cString: strerror(errno)))")
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
        let kind = (info.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file"
        throw Console.failure("\(path): is \(kind); expected a file")
    }
    guard info.st_size <= limit else { throw Console.failure("\(path): is \(info.st_size >> 20) MiB; at most \(limit >> 20) MiB is read") }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw Console.failure("\(path): cannot be read (\(String(cString: strerror(errno))))")
    }
    return data
}

/// `AtomicFile.write` with its failure as an `error:` line and exit 1.
func gaenWriteAtomically(_ data: Data, to path: String, permissions: Int = 0o644) throws {
    do { try AtomicFile.write(data, to: URL(fileURLWithPath: path), permissions: permissions) } catch { throw Console.failure("\(error)") }
}

func gaenJSONString(_ object: Any) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    return String(decoding: data, as: UTF8.self)
}
