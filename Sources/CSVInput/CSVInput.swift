import CSV
import Foundation

/// Every CSV file ENSim reads (diagnosis keys for `gaen export`, `health.cases_csv`) goes through
/// here, so all of them take RFC 4180 the same way: LF or CRLF line ends, quoted fields (with
/// commas, quotes or line breaks inside), a UTF-8 byte-order mark, blank lines skipped, fields
/// trimmed. Parsing is CSV.swift's; this adds the line number of each row for error messages.
public enum CSVInput {
    public struct Row: Equatable, Sendable {
        /// 1-based line on which the row starts.
        public var line: Int
        public var cells: [String]
    }

    public struct ParseError: Error, Equatable, Sendable {
        public var line: Int
        public var message: String
    }

    public static func rows(_ text: String) throws(ParseError) -> [Row] {
        let body = text.hasPrefix("\u{FEFF}") ? String(text.unicodeScalars.dropFirst()) : text
        let reader: CSVReader
        do { reader = try CSVReader(string: body, hasHeaderRow: false, trimFields: true) } catch {
            throw ParseError(line: 1, message: "not CSV (\(error))")
        }
        var rows: [Row] = []
        var line = 1
        while let cells = reader.next() {
            if !(cells.count == 1 && cells[0].isEmpty) { rows.append(Row(line: line, cells: cells)) }
            // A quoted field may span lines; the row's own line end is one more.
            line += 1 + cells.reduce(0) { $0 + $1.unicodeScalars.filter { $0 == "\n" }.count }
        }
        if let error = reader.error { throw ParseError(line: line, message: "not CSV (\(error))") }
        return rows
    }
}
