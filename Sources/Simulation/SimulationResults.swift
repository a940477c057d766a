import SimulationCore

/// Everything a simulation run reports.
public struct SimulationResults: Equatable, Sendable {
    public var summary: RunSummary
    /// daily.csv; nil when the run streamed it into its folder (`ensim run`).
    public var dailyTable: ResultTable?
    /// daily.csv of a run that kept its tables (tests, sweeps, benchmarks).
    public var daily: ResultTable {
        guard let dailyTable else { preconditionFailure("daily.csv was streamed into the run folder") }
        return dailyTable
    }
    public var hourly: ResultTable?
    /// Further CSV tables by file name (e.g. `thresholds.csv`, `monthly.csv`), written in this order.
    public var tables: [NamedTable]
    /// Further files by relative path (e.g. `exports/...zip`), written as given.
    public var files: [NamedFile]

    public init(summary: RunSummary, daily: ResultTable?, hourly: ResultTable?, tables: [NamedTable] = [], files: [NamedFile] = []) {
        self.summary = summary
        dailyTable = daily
        self.hourly = hourly
        self.tables = tables
        self.files = files
    }
}
