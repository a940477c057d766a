import EventEngine
import Foundation
import Simulation
import World

/// What the epidemic stage costs: the population benchmark's run (N people, D days, 40% on the
/// app) without and with the `epidemic` block at its defaults, one after the other in this
/// process, with the engine's event rate and the epidemic's own phases; optionally a third run
/// with the counterfactual (the same seed again with nobody acting on notifications).
public struct EpidemicBenchmark {
    public var size: PopulationBenchmark
    public var counterfactual: Bool

    public init(phones: Int, days: Int, threads: Int, counterfactual: Bool = false) {
        size = PopulationBenchmark(phones: phones, days: days, threads: threads)
        self.counterfactual = counterfactual
    }

    public func run() throws -> BenchmarkReport {
        let (phones, days, threads) = (size.phones, size.days, size.threads)
        var config = PopulationBenchmark.config(phones: phones, days: days, threads: threads)
        config.epidemic.initialInfections = max(1, phones / 500)
        let without = try measure(config)
        config.epidemic.enabled = true
        let with = try measure(config)
        config.epidemic.counterfactual = true
        let withCounterfactual = counterfactual ? try measure(config).wall : nil
        let epidemicEvents = with.results.summary.eventsByKind.entries.filter { $0.name.hasPrefix("epidemic") }
        let epidemicPhases = with.phases.filter { $0.key.hasPrefix("EpidemicStage") }
        var report = BenchmarkReport([
            "benchmark": "epidemic",
            "phones": phones,
            "days": days,
            "threads": threads,
            "wall_seconds_without": without.wall,
            "wall_seconds_with": with.wall,
            "overhead": with.wall / without.wall - 1,
            "epidemic_stage_seconds": epidemicPhases.values.reduce(0, +),
            "phase_seconds_with": with.phases,
            "events_with": with.results.summary.events,
            "epidemic_events": Dictionary(uniqueKeysWithValues: epidemicEvents.map { ($0.name, $0.value) }),
            "engine_events_per_second": Double(with.results.summary.events) / max(1e-9, with.phases["engine events"] ?? 0),
            "infections": with.results.summary.epidemic?.infections ?? 0,
            "index_cases_without": without.results.summary.health.indexCases,
            "index_cases_with": with.results.summary.health.indexCases,
            "peak_rss_bytes": PeakMemory.residentBytes,
            "load_average": Machine.loadAverage ?? "n/a",
        ])
        if let withCounterfactual {
            report.fields["wall_seconds_with_counterfactual"] = withCounterfactual
            report.fields["counterfactual_factor"] = withCounterfactual / with.wall
        }
        return report
    }

    private func measure(_ config: SimulationConfig) throws -> (wall: Double, phases: [String: Double], results: SimulationResults) {
        let started = Date()
        let simulation = try Simulation(config: config)
        let results = try simulation.run()
        return (Date().timeIntervalSince(started), simulation.phaseSeconds, results)
    }
}
