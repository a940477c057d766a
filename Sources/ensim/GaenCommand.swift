import ArgumentParser
import Foundation
import GAEN

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

    @Option(help: "Transmit power in dBm written into the metadata (-128…127).")
    var txPower: String = "8"

    @Option(help: "Metadata version byte, 2 hex digits.")
    var metadataVersion: String = "40"

    @Flag(help: "Print JSON instead of text lines.")
    var json = false

    func run() throws {
        guard let keyData = Bytes16(hex: tek) else {
            throw gaenFail("--tek: expected 32 hex digits (16 bytes), got '\(tek)'")
        }
        guard let first = UInt32(enin) else { throw gaenFail("--enin: '\(enin)' is not an interval number (0…\(UInt32.max))") }
        guard let intervals = Int(count), (1...144).contains(intervals) else {
            throw gaenFail("--count: '\(count)' is not an integer in 1…144")
        }
        guard let power = Int8(txPower) else { throw gaenFail("--tx-power: '\(txPower)' is not an integer in -128…127") }
        guard let versionBytes = HexCoding.decode(metadataVersion), versionBytes.count == 1 else {
            throw gaenFail("--metadata-version: expected 2 hex digits, got '\(metadataVersion)'")
        }
        guard UInt64(first) + UInt64(intervals) - 1 <= UInt64(UInt32.max) else {
            throw gaenFail("--enin: \(first) + \(intervals) intervals overflows 32 bits")
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
            catch let error as ExportFileError { throw gaenFail("\(path): \(error)") }
        }
        let parsed: ParsedExport
        do { parsed = try ExportReader.parse(archive: archive) } catch { throw gaenFail("\(file): \(error)") }

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
        if let signatureError { throw gaenFail("\(file): \(signatureError)") }
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

// MARK: - export

struct GaenExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Build a signed key export zip (export.bin + export.sig) from a CSV of keys.",
        discussion: """
        CSV: a header row naming the columns (any order), then one key per line.
          key_data                       required, 32 hex digits
          rolling_start_interval_number  required, ENIntervalNumber
          rolling_period                 optional, 1…144 (empty: 144)
          transmission_risk_level        optional, integer (empty: absent)
          report_type                    optional, number 0…5 or name: unknown, confirmed_test,
                                         confirmed_clinical_diagnosis, self_report, recursive, revoked
          days_since_onset               optional, integer (empty: absent)
        Keys are written sorted by key_data unless --keep-order is given.
        """
    )

    @Option(help: "CSV file of keys (see below).")
    var keys: String

    @Option(help: "P-256 private key PEM (from `ensim gaen keygen`).")
    var signingKey: String

    @Option(help: "Output zip file (written atomically).")
    var out: String

    @Option(help: "Region, e.g. an ISO country code or MCC.")
    var region: String = "ZZ"

    @Option(help: "1-based number of this file in its batch.")
    var batchNum: Int32 = 1

    @Option(help: "Number of files in the batch.")
    var batchSize: Int32 = 1

    @Option(help: "Start of the key window, Unix seconds (default: start of the earliest key).")
    var startTimestamp: UInt64?

    @Option(help: "End of the key window, Unix seconds (default: end of the latest key).")
    var endTimestamp: UInt64?

    @Option(help: "SignatureInfo verification_key_id (default: the region).")
    var keyId: String?

    @Option(help: "SignatureInfo verification_key_version.")
    var keyVersion: String = "v1"

    @Flag(help: "Keep the CSV order instead of sorting keys by key_data.")
    var keepOrder = false

    func validate() throws {
        guard batchNum >= 1, batchSize >= batchNum else {
            throw ValidationError("--batch-num must be in 1…--batch-size")
        }
    }

    func run() throws {
        let csv = String(decoding: try gaenReadFile(keys), as: UTF8.self)
        let parsedKeys: [DiagnosisKey]
        do { parsedKeys = try GaenKeyCSV.parse(csv) } catch { throw gaenFail("\(keys):\(error.line): \(error.message)") }
        let signer: ExportSigningKey
        do { signer = try ExportSigningKey(pemRepresentation: String(decoding: try gaenReadFile(signingKey), as: UTF8.self)) }
        catch let error as ExportFileError { throw gaenFail("\(signingKey): \(error)") }

        let starts = parsedKeys.map { UInt64($0.temporaryExposureKey.rollingStartIntervalNumber.rawValue) }
        let ends = parsedKeys.map { UInt64($0.temporaryExposureKey.intervals.upperBound) }
        let start = startTimestamp ?? (starts.min() ?? 0) * 600
        let end = endTimestamp ?? (ends.max() ?? 0) * 600
        guard end >= start else { throw gaenFail("--end-timestamp \(end) is before --start-timestamp \(start)") }

        let builder = ExportBuilder(signingKey: signer,
                                    signatureInfo: SignatureInfo(verificationKeyVersion: keyVersion, verificationKeyID: keyId ?? region),
                                    keyOrder: keepOrder ? .asGiven : .sortedByKeyData)
        let zip = try builder.archive(keys: parsedKeys, region: region, batchNumber: batchNum, batchSize: batchSize,
                                      startTimestamp: start, endTimestamp: end)
        try gaenWriteAtomically(zip, to: out)
        print("wrote \(out): \(parsedKeys.count) keys, \(zip.count) bytes")
    }
}

/// The key CSV of `ensim gaen export`; errors carry the 1-based line number.
enum GaenKeyCSV {
    struct ParseError: Error {
        var line: Int
        var message: String
    }

    static let columns = ["key_data", "rolling_start_interval_number", "rolling_period",
                          "transmission_risk_level", "report_type", "days_since_onset"]

    static func parse(_ text: String) throws(ParseError) -> [DiagnosisKey] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        guard let headerLine = lines.first, !headerLine.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ParseError(line: 1, message: "missing header row (columns: \(columns.joined(separator: ",")))")
        }
        let header = headerLine.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for name in header where !columns.contains(name) {
            throw ParseError(line: 1, message: "unknown column '\(name)' (known: \(columns.joined(separator: ",")))")
        }
        for required in columns.prefix(2) where !header.contains(required) {
            throw ParseError(line: 1, message: "header lacks required column '\(required)'")
        }
        if Set(header).count != header.count { throw ParseError(line: 1, message: "duplicate column in header") }

        var keys: [DiagnosisKey] = []
        for (offset, line) in lines.enumerated().dropFirst() {
            let lineNumber = offset + 1
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == header.count else {
                throw ParseError(line: lineNumber, message: "expected \(header.count) fields, found \(cells.count)")
            }
            var row: [String: String] = [:]
            for (name, cell) in zip(header, cells) where !cell.isEmpty { row[name] = cell }
            keys.append(try key(from: row, line: lineNumber))
        }
        return keys
    }

    private static func key(from row: [String: String], line: Int) throws(ParseError) -> DiagnosisKey {
        func fail(_ column: String, _ message: String) -> ParseError {
            ParseError(line: line, message: "\(column): \(message)")
        }
        guard let hex = row["key_data"] else { throw fail("key_data", "missing") }
        guard let keyData = Bytes16(hex: hex) else { throw fail("key_data", "expected 32 hex digits (16 bytes), got '\(hex)'") }
        guard let startText = row["rolling_start_interval_number"] else { throw fail("rolling_start_interval_number", "missing") }
        guard let start = UInt32(startText), start <= UInt32(Int32.max) else {
            throw fail("rolling_start_interval_number", "'\(startText)' is not an interval number")
        }
        var period: UInt32 = 144
        if let text = row["rolling_period"] {
            guard let value = UInt32(text), (1...144).contains(value) else { throw fail("rolling_period", "'\(text)' is not in 1…144") }
            period = value
        }
        var trl: Int32?
        if let text = row["transmission_risk_level"] {
            guard let value = Int32(text) else { throw fail("transmission_risk_level", "'\(text)' is not an integer") }
            trl = value
        }
        var type: ReportType?
        if let text = row["report_type"] {
            guard let value = ReportType(csvName: text) else {
                throw fail("report_type", "'\(text)' is not 0…5 or one of \(ReportType.allCases.map(\.csvName).joined(separator: ", "))")
            }
            type = value
        }
        var dsos: Int32?
        if let text = row["days_since_onset"] {
            guard let value = Int32(text) else { throw fail("days_since_onset", "'\(text)' is not an integer") }
            dsos = value
        }
        let tek = try! TemporaryExposureKey(keyData: keyData, rollingStartIntervalNumber: ENIntervalNumber(start),
                                            rollingPeriod: period)
        return DiagnosisKey(tek, transmissionRiskLevel: trl, reportType: type, daysSinceOnsetOfSymptoms: dsos)
    }
}

extension ReportType {
    var csvName: String {
        switch self {
        case .unknown: return "unknown"
        case .confirmedTest: return "confirmed_test"
        case .confirmedClinicalDiagnosis: return "confirmed_clinical_diagnosis"
        case .selfReport: return "self_report"
        case .recursive: return "recursive"
        case .revoked: return "revoked"
        }
    }

    init?(csvName text: String) {
        if let number = Int32(text) {
            self.init(rawValue: number)
        } else if let match = ReportType.allCases.first(where: { $0.csvName == text.lowercased() }) {
            self = match
        } else {
            return nil
        }
    }
}

// MARK: - keygen

struct GaenKeygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Create an ECDSA P-256 signing key: private PEM at --out, public PEM beside it (NAME.pub.pem)."
    )

    @Option(help: "Private key PEM file to write (mode 0600).")
    var out: String

    @Option(help: "Public key PEM file (default: --out with .pem replaced by .pub.pem).")
    var publicOut: String?

    @Flag(help: "Overwrite existing files.")
    var force = false

    func run() throws {
        let publicPath = publicOut ?? Self.publicPath(for: out)
        guard publicPath != out else { throw gaenFail("--public-out must differ from --out") }
        if !force {
            for path in [out, publicPath] where FileManager.default.fileExists(atPath: path) {
                throw gaenFail("\(path): already exists (use --force to overwrite)")
            }
        }
        let key = ExportSigningKey()
        try gaenWriteAtomically(Data(key.pemRepresentation.utf8), to: out, permissions: 0o600)
        try gaenWriteAtomically(Data(key.verificationKey.pemRepresentation.utf8), to: publicPath)
        print("wrote \(out) (private) and \(publicPath) (public)")
    }

    static func publicPath(for privatePath: String) -> String {
        privatePath.hasSuffix(".pem") ? String(privatePath.dropLast(4)) + ".pub.pem" : privatePath + ".pub.pem"
    }
}

// MARK: - shared helpers

/// Prints `error: message` on stderr and returns the exit code to throw.
func gaenFail(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    return ExitCode(1)
}

func gaenReadFile(_ path: String) throws -> Data {
    guard FileManager.default.fileExists(atPath: path) else { throw gaenFail("\(path): no such file") }
    do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
        throw gaenFail("\(path): cannot read (\(error.localizedDescription))")
    }
}

/// Writes through a temporary file in the same directory and renames it into place, so readers
/// never see half a file; the temporary file is created with `permissions` from the start.
func gaenWriteAtomically(_ data: Data, to path: String, permissions: Int = 0o644) throws {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)").path
    guard FileManager.default.createFile(atPath: temporary, contents: data,
                                         attributes: [.posixPermissions: permissions]) else {
        throw gaenFail("\(path): cannot write")
    }
    guard rename(temporary, path) == 0 else {
        let reason = String(cString: strerror(errno))
        try? FileManager.default.removeItem(atPath: temporary)
        throw gaenFail("\(path): cannot write (\(reason))")
    }
}

func gaenJSONString(_ object: Any) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    return String(decoding: data, as: UTF8.self)
}
