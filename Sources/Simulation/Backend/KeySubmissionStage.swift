import EventEngine

/// The health system and the backend: each day's index cases and positive results, each case's
/// path from result to upload (OTP/TAN, consent, verification) as engine events, the hourly
/// publication and aggregated dummy and national traffic.
final class KeySubmissionStage: Stage {
    let pipeline: KeySubmissionPipeline
    /// Index cases drawn at today's midnight.
    private(set) var indexCasesToday = 0

    /// Reads `health.cases_csv` when the scenario names one.
    init(config: SimulationConfig, world: WorldStage, schedule: @escaping (SimulationEvent, SimTime) -> Void) throws {
        var series: CaseSeries? = nil
        if let path = config.health.casesCSV {
            let loaded = try CaseSeries.load(path: path)
            try loaded.checkCovers(start: config.start, days: config.days, path: path)
            series = loaded
        }
        pipeline = KeySubmissionPipeline(health: config.health, backend: config.backend, seed: config.seed, start: config.start,
                                         days: config.days, phoneOf: world.population.phoneOf, appPhones: world.fleet.count,
                                         series: series) { step, i, t in schedule(.pipeline(step, i), t) }
    }

    func startDay(_ day: SimulatedDay) { indexCasesToday = pipeline.startDay(midnight: day.midnight) }

    /// The engine events this stage owns: the full hour and each case's next step.
    func handle(_ event: SimulationEvent, now: SimTime) throws {
        switch event {
        case .hour: try pipeline.hour(now)
        case .pipeline(let step, let index): try pipeline.handle(step, case: index, now: now)
        case .midnight: break
        }
    }

    static let dailyColumns = ["index_cases"] + KeySubmissionPipeline.columns

    func dailyValues(_ day: SimulatedDay) -> [ReportValue] { [.integer(Int64(indexCasesToday))] + pipeline.dayValues(day.index) }

    func result() -> KeySubmissionResult {
        KeySubmissionResult(health: pipeline.healthSummary(), backend: pipeline.backendSummary(), packages: pipeline.packageTable(),
                            exports: pipeline.publisher.exports)
    }
}

struct KeySubmissionResult {
    var health: ReportValue
    var backend: ReportValue
    /// packages.csv
    var packages: ResultTable
    /// Every signed export (written with `outputs.exports`).
    var exports: [NamedFile]
}
