import EventEngine
import SimulationCore
import World

/// The health system and the backend: each day's index cases and positive results, each case's
/// path from result to upload (OTP/TAN, consent, verification) as engine events, the hourly
/// publication and aggregated dummy and national traffic.
package final class KeySubmissionStage: Stage {
    package let pipeline: KeySubmissionPipeline
    /// Index cases drawn at today's midnight.
    package private(set) var indexCasesToday = 0
    private let threads: Int

    /// Reads `health.cases_csv` when the scenario names one.
    package init(_ run: RunContext, health: HealthParameters, backend: BackendParameters, world: WorldStage,
         schedule: @escaping (KeySubmissionEvent, SimTime) -> Void) throws {
        var series: CaseSeries? = nil
        if let path = health.casesCSV {
            let loaded = try CaseSeries.load(path: path)
            try loaded.checkCovers(start: run.start, days: run.days, path: path)
            series = loaded
        }
        threads = run.threads
        pipeline = KeySubmissionPipeline(health: health, backend: backend, seed: run.seed, start: run.start,
                                         days: run.days, phoneOf: world.population.phoneOf, appPhones: world.fleet.count,
                                         series: series) { step, i, t in schedule(.pipeline(step, i), t) }
        pipeline.publisher.defersArchives = true
    }

    package func startDay(_ day: SimulatedDay) { indexCasesToday = pipeline.startDay(midnight: day.midnight) }

    /// The day's export archives, built together in parallel before anything reads their sizes.
    package func endDay(_ day: SimulatedDay) throws { try pipeline.buildArchives(threads: threads) }

    /// The engine events this stage owns: the full hour and each case's next step.
    package func handle(_ event: KeySubmissionEvent, now: SimTime) throws {
        switch event {
        case .hour: try pipeline.hour(now)
        case .pipeline(let step, let index): try pipeline.handle(step, case: index, now: now)
        }
    }

    package static let dailyColumns = ["index_cases"] + KeySubmissionPipeline.columns

    package func dailyValues(_ day: SimulatedDay) -> [ResultTable.Cell] { [.integer(Int64(indexCasesToday))] + pipeline.dayValues(day.index) }

    package func result() -> KeySubmissionResult {
        KeySubmissionResult(health: pipeline.healthSummary(), backend: pipeline.backendSummary(), packages: pipeline.packageTable(),
                            exports: pipeline.publisher.exports)
    }
}

/// The engine events the health system and backend own.
package enum KeySubmissionEvent {
    /// Full hour: the backend publishes, enforces retention and gets the hour's dummy and
    /// national uploads (aggregated, not one event each).
    case hour
    /// One step of a positive case's path from test result to upload (case index).
    case pipeline(PipelineStep, Int32)

    package var kindIndex: Int {
        switch self {
        case .hour: return 0
        case .pipeline(let step, _): return 1 + step.rawValue
        }
    }

    package static let kindNames = ["hour"] + PipelineStep.allCases.map(\.name)
}

package struct KeySubmissionResult {
    package var health: HealthSummary
    package var backend: BackendSummary
    /// packages.csv
    package var packages: ResultTable
    /// Every signed export (written with `outputs.exports`).
    package var exports: [NamedFile]
}
