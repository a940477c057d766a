import Analytics
import CSV
import Foundation
import HealthBackend
import Simulation
import SimulationCore

/// Writes a result table as CSV (header row, then one row per entry) with CSV.swift.
public enum CSVReport {
    public static func encode(_ table: ResultTable) throws -> Data {
        let stream = OutputStream(toMemory: ())
        let writer = try CSVWriter(stream: stream)
        try writer.write(row: table.columns)
        for row in table.rows {
            try writer.write(row: row.map(cell))
        }
        writer.stream.close()
        guard var data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data else {
            throw ReportingError.encoding("CSV writer produced no data")
        }
        data.append(UInt8(ascii: "\n"))  // CSVWriter separates rows; end the last line too
        return data
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
