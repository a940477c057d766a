import Analytics
import Foundation
import HealthBackend
import Simulation
import SimulationCore

/// Writes a result table as RFC 4180 CSV: a header row, then one row per entry, each line ended
/// by LF; a field is quoted (with quotes doubled) only when it holds a comma, a quote, CR or LF.
///
/// Written here rather than with CSV.swift's `CSVWriter`, which produced the same bytes but cost
/// ~75% of a 90-day run's time (a stream write per character and a Foundation substring search
/// per field); reading CSV still goes through the package.
public enum CSVReport {
    public static func encode(_ table: ResultTable) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(64 * (table.count + 1) * max(table.columns.count, 1) / 4)
        appendRow(table.columns.lazy.map { .text($0) }, to: &out)
        for i in 0..<table.count { appendRow(table.row(i), to: &out) }
        return Data(out)
    }

    static func appendRow(_ cells: some Sequence<ResultTable.Cell>, to out: inout [UInt8]) {
        var first = true
        for cell in cells {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            if case .integer(let v) = cell { appendInteger(v, to: &out) } else { appendField(self.cell(cell), to: &out) }
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// The digits `String(v)` would give, without making the string (most cells are integers).
    static func appendInteger(_ v: Int64, to out: inout [UInt8]) {
        // One digit, most often 0: the per-minute and per-hour tables of a small run are mostly zeros.
        if v >= 0 && v < 10 {
            out.append(UInt8(ascii: "0") + UInt8(v))
            return
        }
        if v < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = v.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: buffer[(20 - count)...])
        }
    }

    static func appendField(_ field: String, to out: inout [UInt8]) {
        let quote = UInt8(ascii: "\"")
        let bytes = field.utf8
        guard bytes.contains(where: { $0 == quote || $0 == UInt8(ascii: ",") || $0 == 0x0D || $0 == 0x0A }) else {
            out.append(contentsOf: bytes)
            return
        }
        out.append(quote)
        for b in bytes {
            out.append(b)
            if b == quote { out.append(quote) }
        }
        out.append(quote)
    }

    static func cell(_ value: ResultTable.Cell) -> String {
        switch value {
        case .integer(let v): return String(v)
        case .number(let v): return v.isFinite ? "\(v)" : ""
        case .text(let v): return v
        case .boolean(let v): return v ? "true" : "false"
        }
    }
}

public enum ReportingError: Error, CustomStringConvertible {
    case encoding(String)
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .encoding(let m): return m
        case .io(let path, let reason): return "\(path): \(reason)"
        }
    }
}
