/// Rows of named columns (daily.csv, hourly.csv).
public struct ResultTable: Equatable, Sendable {
    /// One CSV cell.
    public enum Cell: Equatable, Sendable {
        case integer(Int64)
        case number(Double)
        case text(String)
        case boolean(Bool)
    }

    public let columns: [String]
    public private(set) var rows: [[Cell]] = []

    public init(columns: [String]) { self.columns = columns }

    public mutating func append(_ row: [Cell]) {
        precondition(row.count == columns.count, "row has \(row.count) values for \(columns.count) columns")
        rows.append(row)
    }

    public func column(_ name: String) -> [Cell] {
        guard let i = columns.firstIndex(of: name) else { return [] }
        return rows.map { $0[i] }
    }
}

/// Everything a simulation run reports.
public struct SimulationResults: Equatable, Sendable {
    public var summary: RunSummary
    public var daily: ResultTable
    public var hourly: ResultTable?
    /// Further CSV tables by file name (e.g. `thresholds.csv`, `monthly.csv`), written in this order.
    public var tables: [NamedTable]
    /// Further files by relative path (e.g. `exports/...zip`), written as given.
    public var files: [NamedFile]

    public init(summary: RunSummary, daily: ResultTable, hourly: ResultTable?, tables: [NamedTable] = [], files: [NamedFile] = []) {
        self.summary = summary
        self.daily = daily
        self.hourly = hourly
        self.tables = tables
        self.files = files
    }
}

public struct NamedTable: Equatable, Sendable {
    public var name: String
    public var table: ResultTable
    public init(_ name: String, _ table: ResultTable) { self.name = name; self.table = table }
}

public struct NamedFile: Equatable, Sendable {
    public var path: String
    public var bytes: [UInt8]
    public init(_ path: String, _ bytes: [UInt8]) { self.path = path; self.bytes = bytes }
}
