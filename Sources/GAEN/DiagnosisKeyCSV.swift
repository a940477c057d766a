import CSVInput
import Foundation

/// Diagnosis keys as CSV: a header row naming the columns (any order), then one key per line.
///
///     key_data                       required, 32 hex digits
///     rolling_start_interval_number  required, ENIntervalNumber
///     rolling_period                 optional, 1…144 (empty: 144)
///     transmission_risk_level        optional, integer (empty: absent)
///     report_type                    optional, number 0…5 or a `ReportType.csvName`
///     days_since_onset               optional, integer (empty: absent)
///
/// Read with `CSVInput` (RFC 4180: CRLF, quoted fields, a UTF-8 BOM, blank lines skipped); errors
/// carry the 1-based line number.
public enum DiagnosisKeyCSV {
    public struct ParseError: Error, Equatable {
        public var line: Int
        public var message: String
    }

    public static let columns = ["key_data", "rolling_start_interval_number", "rolling_period",
                                 "transmission_risk_level", "report_type", "days_since_onset"]

    /// - Complexity: O(n) in the length of `text`.
    public static func parse(_ text: String) throws(ParseError) -> [DiagnosisKey] {
        let rows: [CSVInput.Row]
        do { rows = try CSVInput.rows(text) } catch { throw ParseError(line: error.line, message: error.message) }
        guard let headerRow = rows.first, headerRow.line == 1 else {
            throw ParseError(line: 1, message: "missing header row (columns: \(columns.joined(separator: ",")))")
        }
        let header = headerRow.cells.map { $0.lowercased() }
        for name in header where !columns.contains(name) {
            throw ParseError(line: 1, message: "unknown column '\(name)' (known: \(columns.joined(separator: ",")))")
        }
        for required in columns.prefix(2) where !header.contains(required) {
            throw ParseError(line: 1, message: "header lacks required column '\(required)'")
        }
        if Set(header).count != header.count { throw ParseError(line: 1, message: "duplicate column in header") }

        var keys: [DiagnosisKey] = []
        var firstLine: [Bytes16: Int] = [:]
        for row in rows.dropFirst() {
            guard row.cells.count == header.count else {
                throw ParseError(line: row.line, message: "expected \(header.count) fields, found \(row.cells.count)")
            }
            var fields: [String: String] = [:]
            for (name, cell) in zip(header, row.cells) where !cell.isEmpty { fields[name] = cell }
            let key = try key(from: fields, line: row.line)
            // A key appears once in an export (a server deduplicates uploads by key data).
            if let first = firstLine[key.temporaryExposureKey.keyData] {
                throw ParseError(line: row.line, message: "key_data: duplicate of the key on line \(first)")
            }
            firstLine[key.temporaryExposureKey.keyData] = row.line
            keys.append(key)
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
        var period = TemporaryExposureKey.defaultRollingPeriod
        if let text = row["rolling_period"] {
            guard let value = UInt32(text), (1...TemporaryExposureKey.defaultRollingPeriod).contains(value) else {
                throw fail("rolling_period", "'\(text)' is not in 1…144")
            }
            period = value
        }
        var trl: Int32?
        if let text = row["transmission_risk_level"] {
            guard let value = Int32(text), DiagnosisKey.transmissionRiskLevels.contains(value) else {
                throw fail("transmission_risk_level", "'\(text.prefix(40))' is not an integer in 0…8")
            }
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
            guard let value = Int32(text), DiagnosisKey.daysSinceOnsetRange.contains(value) else {
                throw fail("days_since_onset", "'\(text.prefix(40))' is not an integer in −14…14")
            }
            dsos = value
        }
        let tek: TemporaryExposureKey
        do {
            tek = try TemporaryExposureKey(keyData: keyData, rollingStartIntervalNumber: ENIntervalNumber(start), rollingPeriod: period)
        } catch {
            throw fail("rolling_period", "\(error)")
        }
        return DiagnosisKey(tek, transmissionRiskLevel: trl, reportType: type, daysSinceOnsetOfSymptoms: dsos)
    }
}

extension ReportType {
    /// The name in key CSVs and `ensim gaen inspect`: snake case of the export's enum.
    public var csvName: String {
        switch self {
        case .unknown: return "unknown"
        case .confirmedTest: return "confirmed_test"
        case .confirmedClinicalDiagnosis: return "confirmed_clinical_diagnosis"
        case .selfReport: return "self_report"
        case .recursive: return "recursive"
        case .revoked: return "revoked"
        }
    }

    /// A number 0…5 or a `csvName` (any case).
    public init?(csvName text: String) {
        if let number = Int32(text) {
            self.init(rawValue: number)
        } else if let match = ReportType.allCases.first(where: { $0.csvName == text.lowercased() }) {
            self = match
        } else {
            return nil
        }
    }
}
