import ArgumentParser
import Foundation
import GAEN

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
          report_type                    optional, number 0…5 or name: unknown,
                                         confirmed_test, confirmed_clinical_diagnosis,
                                         self_report, recursive, revoked
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

    @Option(parsing: .unconditional, help: "1-based number of this file in its batch.")
    var batchNum: Int32 = 1

    @Option(parsing: .unconditional, help: "Number of files in the batch.")
    var batchSize: Int32 = 1

    @Option(parsing: .unconditional, help: "Start of the key window, Unix seconds (default: start of the earliest key).")
    var startTimestamp: UInt64?

    @Option(parsing: .unconditional, help: "End of the key window, Unix seconds (default: end of the latest key).")
    var endTimestamp: UInt64?

    @Option(help: "SignatureInfo verification_key_id (default: the region).")
    var keyId: String?

    @Option(help: "SignatureInfo verification_key_version.")
    var keyVersion: String = "v1"

    @Flag(help: "Overwrite --out if it exists.")
    var force = false

    @Flag(help: "Keep the CSV order instead of sorting keys by key_data.")
    var keepOrder = false

    func validate() throws {
        guard batchNum >= 1, batchSize >= batchNum else {
            throw ValidationError("--batch-num must be in 1…--batch-size")
        }
    }

    func run() throws {
        if !force, FileManager.default.fileExists(atPath: out) {
            throw Console.failure("\(out): already exists (use --force to overwrite)")
        }
        let csv = String(decoding: try gaenReadFile(keys), as: UTF8.self)
        let parsedKeys: [DiagnosisKey]
        do { parsedKeys = try DiagnosisKeyCSV.parse(csv) } catch { throw Console.failure("\(keys):\(error.line): \(error.message)") }
        let signer: ExportSigningKey
        do { signer = try ExportSigningKey(pemRepresentation: String(decoding: try gaenReadFile(signingKey), as: UTF8.self)) }
        catch let error as ExportFileError { throw Console.failure("\(signingKey): \(error)") }

        let starts = parsedKeys.map { UInt64($0.temporaryExposureKey.rollingStartIntervalNumber.rawValue) }
        let ends = parsedKeys.map { UInt64($0.temporaryExposureKey.intervals.upperBound) }
        let start = startTimestamp ?? (starts.min() ?? 0) * UInt64(ENIntervalNumber.secondsPerInterval)
        let end = endTimestamp ?? (ends.max() ?? 0) * UInt64(ENIntervalNumber.secondsPerInterval)
        guard end >= start else { throw Console.failure("--end-timestamp \(end) is before --start-timestamp \(start)") }

        let builder = ExportBuilder(signingKey: signer,
                                    signatureInfo: SignatureInfo(verificationKeyVersion: keyVersion, verificationKeyID: keyId ?? region),
                                    keyOrder: keepOrder ? .asGiven : .sortedByKeyData)
        let zip = try builder.archive(keys: parsedKeys, region: region, batchNumber: batchNum, batchSize: batchSize,
                                      startTimestamp: start, endTimestamp: end)
        try gaenWriteAtomically(zip, to: out)
        print("wrote \(out): \(parsedKeys.count) keys, \(zip.count) bytes")
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
        guard publicPath != out else { throw Console.failure("--public-out must differ from --out") }
        if !force {
            for path in [out, publicPath] where FileManager.default.fileExists(atPath: path) {
                throw Console.failure("\(path): already exists (use --force to overwrite)")
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
