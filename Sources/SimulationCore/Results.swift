/// Rows of named columns (daily.csv, hourly.csv).
///
/// A table either holds its rows or computes them on demand from a run's compact history
/// (`computed`): a year's hourly tables as cells would cost ~0.5 kB a row, and the writer only
/// needs one row at a time.
public struct ResultTable: Equatable, Sendable {
    /// One CSV cell.
    public enum Cell: Equatable, Sendable {
        case integer(Int64)
        case number(Double)
        case text(String)
        case boolean(Bool)
    }

    public let columns: [String]
    private var stored: [[Cell]] = []
    private var computedRow: (@Sendable (Int) -> [Cell])?
    private var computedCount = 0

    public init(columns: [String]) { self.columns = columns }

    /// A table of `count` rows, row `i` made by `row(i)` when it is read.
    public static func computed(columns: [String], count: Int, row: @escaping @Sendable (Int) -> [Cell]) -> ResultTable {
        var table = ResultTable(columns: columns)
        table.computedRow = row
        table.computedCount = count
        return table
    }

    public var count: Int { computedRow == nil ? stored.count : computedCount }

    public func row(_ i: Int) -> [Cell] {
        guard let computedRow else { return stored[i] }
        let r = computedRow(i)
        precondition(r.count == columns.count, "row has \(r.count) values for \(columns.count) columns")
        return r
    }

    /// Every row (made now for a computed table).
    public var rows: [[Cell]] { computedRow == nil ? stored : (0..<computedCount).map(row) }

    public mutating func append(_ row: [Cell]) {
        precondition(computedRow == nil, "a computed table takes no rows")
        precondition(row.count == columns.count, "row has \(row.count) values for \(columns.count) columns")
        stored.append(row)
    }

    public func column(_ name: String) -> [Cell] {
        guard let i = columns.firstIndex(of: name) else { return [] }
        return (0..<count).map { row($0)[i] }
    }

    public static func == (a: ResultTable, b: ResultTable) -> Bool {
        a.columns == b.columns && a.count == b.count && (0..<a.count).allSatisfy { a.row($0) == b.row($0) }
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

/// A table whose rows become final while the run goes (distribution_minutes.csv), handed over
/// row by row so that a long run need not hold them: into a file of the run folder
/// (Reporting's `CSVStreams`) or into memory (`MemoryTableStream`).
public protocol TableStream: AnyObject {
    func append(_ row: [ResultTable.Cell])
}

/// Opens a run's streamed tables by file name.
public protocol TableStreams: AnyObject {
    func open(_ name: String, columns: [String]) -> any TableStream
}

/// Keeps a streamed table's rows, for runs that return their tables (tests, benchmarks).
public final class MemoryTableStream: TableStream {
    public private(set) var table: ResultTable
    public init(columns: [String]) { table = ResultTable(columns: columns) }
    public func append(_ row: [ResultTable.Cell]) { table.append(row) }
}
