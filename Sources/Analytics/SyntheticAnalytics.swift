import EventEngine
import SimulationCore
import World

/// `detections: synthetic`: the analytics model with its own detection source, fed day by day
/// beside the run (one model, plus one per swept p_OWOE). Each day's phone states are the run's
/// own (`PhoneAvailability`), so a phone that is off or uninstalled in the run makes no request.
/// The models share nothing, so each day they run in parallel shards.
final class SyntheticAnalytics {
    /// The main model first, then one per swept value.
    private let models: [AnalyticsModel]
    private let sources: [SyntheticDetections]
    private let threads: Int

    init(_ run: RunContext, parameters: AnalyticsParameters, phoneOS: [OperatingSystem]) {
        let variants = [parameters] + parameters.sweepPWithoutExposure.map { AnalyticsSweep.parameters(parameters, pWithoutExposure: $0) }
        models = variants.map { p in
            AnalyticsModel(parameters: p, seed: run.seed, start: run.start, days: run.days,
                           phones: AnalyticsRun.profiles(phoneOS: phoneOS, parameters: p, seed: run.seed, start: run.start))
        }
        sources = variants.map { SyntheticDetections(parameters: $0, seed: run.seed) }
        threads = run.threads
    }

    /// The main model (without the sweep's).
    var model: AnalyticsModel { models[0] }

    func day(_ day: SimulatedDay, availability states: PhoneAvailability) {
        let shared = Shared(models: models, sources: sources, states: states)
        forEachShard(count: models.count, threads: threads) { range in
            for i in range {
                shared.sources[i].run(day: day.midnight, model: shared.models[i]) { phone in
                    PhoneDayState(runsDetections: !shared.states.uninstalled[phone] && !shared.states.phoneOff[phone]
                                      && !shared.states.forceClosed[phone],
                                  bluetoothOn: !shared.states.bluetoothOff[phone])
                }
            }
        }
    }

    /// The `analytics` section (with the p_OWOE sweep when configured) and its tables.
    func finish() -> (summary: AnalyticsSummary, tables: [NamedTable]) {
        var (section, tables) = models[0].finish()
        if models.count > 1 {
            let rows = models.dropFirst().map { m in m.advance(until: m.end); return AnalyticsSweep.row(model: m) }
            tables.append(NamedTable("sweep.csv", AnalyticsSweep.table(rows: rows)))
            section.sweep = rows
        }
        return (section, tables)
    }

    /// What the shards read; each shard touches only its own models.
    private struct Shared: @unchecked Sendable {
        let models: [AnalyticsModel]
        let sources: [SyntheticDetections]
        let states: PhoneAvailability
    }
}
