import SimulationCore

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
