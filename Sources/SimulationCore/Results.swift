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
