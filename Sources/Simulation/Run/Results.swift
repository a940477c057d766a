import GSL
/// A value in a run's reported results; keeps key order so reports read in a sensible order.
public indirect enum ReportValue: Equatable, Sendable {
    case integer(Int64)
    case number(Double)
    case text(String)
    case boolean(Bool)
    case object([(String, ReportValue)])
    case array([ReportValue])

    public static func == (a: ReportValue, b: ReportValue) -> Bool {
        switch (a, b) {
        case let (.integer(x), .integer(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.text(x), .text(y)): return x == y
        case let (.boolean(x), .boolean(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.map(\.0) == y.map(\.0) && zip(x, y).allSatisfy { $0.1 == $1.1 }
        default: return false
        }
    }

    public subscript(key: String) -> ReportValue? {
        guard case .object(let entries) = self else { return nil }
        return entries.first { $0.0 == key }?.1
    }
}

extension ReportValue {
    /// A rate x / n with its Clopper–Pearson 95% interval (GSL), times `scale` (e.g. 1,000 for
    /// "per 1,000"); with n = 0 the estimate is "n/a".
    public static func proportion(_ x: Int, of n: Int, scale: Double = 1) -> ReportValue {
        guard n > 0 else { return .object([("estimate", .text("n/a")), ("trials", .integer(0))]) }
        let ci = Proportion.clopperPearson(successes: x, trials: n)
        return .object([("estimate", .number(ci.estimate * scale)), ("ci_lower", .number(ci.lower * scale)),
                        ("ci_upper", .number(ci.upper * scale)), ("confidence", .number(ci.confidence)),
                        ("successes", .integer(Int64(x))), ("trials", .integer(Int64(n)))])
    }

    /// A confidence interval: estimate, bounds and level.
    public static func interval(_ ci: ConfidenceInterval) -> ReportValue {
        .object([("estimate", .number(ci.estimate)), ("ci_lower", .number(ci.lower)), ("ci_upper", .number(ci.upper)),
                 ("confidence", .number(ci.confidence))])
    }
}

/// Rows of named columns (daily.csv, hourly.csv).
public struct ResultTable: Equatable, Sendable {
    public let columns: [String]
    public private(set) var rows: [[ReportValue]] = []

    public init(columns: [String]) { self.columns = columns }

    public mutating func append(_ row: [ReportValue]) {
        precondition(row.count == columns.count, "row has \(row.count) values for \(columns.count) columns")
        rows.append(row)
    }

    public func column(_ name: String) -> [ReportValue] {
        guard let i = columns.firstIndex(of: name) else { return [] }
        return rows.map { $0[i] }
    }
}

/// Everything a simulation run reports.
public struct SimulationResults: Equatable, Sendable {
    public var summary: ReportValue
    public var daily: ResultTable
    public var hourly: ResultTable?
    /// Further CSV tables by file name (e.g. `thresholds.csv`, `monthly.csv`), written in this order.
    public var tables: [NamedTable]
    /// Further files by relative path (e.g. `exports/...zip`), written as given.
    public var files: [NamedFile]

    public init(summary: ReportValue, daily: ResultTable, hourly: ResultTable?, tables: [NamedTable] = [], files: [NamedFile] = []) {
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
