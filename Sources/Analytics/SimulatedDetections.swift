import Detection
import Distribution
import EventEngine
import GSL
import SimulationCore
import World

/// `detections: simulated`: the analytics model fed by the run's own GAEN chain.
///
/// A detection run is every completed key-index check of a contact phone
/// (`DistributionModel.checkSessions`): the Immuni app runs exposure detection after each
/// successful index check, whether or not new chunks came. It counts on days the run's
/// `PhoneAvailability` lets the app run (installed, phone on, not force-closed), with that
/// day's Bluetooth state, from the phone's analytics install time and only with the
/// exposure-notification permission (as the synthetic source).
///
/// A phone reports a risky exposure (its notification's exposure day) at its first counted
/// detection at or after `ExposureDetection`'s notification time, once: Immuni detects on new
/// chunks only, and the seed's flag is "notified after the last Exposure Detection".
///
/// A p_OWOE sweep (`analytics.sweep`) runs one more model per value beside the main one, each
/// fed the same detection runs, so the values differ by sampling alone (as in synthetic mode).
package final class SimulatedDetections {
    /// One detection as every model receives it.
    package struct Run: Sendable {
        package var phone: Int
        package var at: SimTime
        package var riskyDay: Int64?
        package var bluetoothOn: Bool
    }

    /// Models touched by one shard each while a day is fed.
    private struct Models: @unchecked Sendable { let all: [AnalyticsModel] }

    package let model: AnalyticsModel
    /// One attack-free model per swept p_OWOE, fed the very same detections: only sampling differs.
    package let sweep: [AnalyticsModel]
    package let threads: Int
    package let startDayNumber: Int64
    /// Whether each phone's notification has reached the analytics.
    private var reported: [Bool]
    package private(set) var detectionsFed = 0
    package private(set) var checksSkipped = 0

    package init(_ run: RunContext, parameters p: AnalyticsParameters, phoneOS: [OperatingSystem]) {
        let profiles = AnalyticsRun.profiles(phoneOS: phoneOS, parameters: p, seed: run.seed, start: run.start)
        model = AnalyticsModel(parameters: p, seed: run.seed, start: run.start, days: run.days, phones: profiles)
        sweep = p.sweepPWithoutExposure.map { value in
            AnalyticsModel(parameters: AnalyticsSweep.parameters(p, pWithoutExposure: value), seed: run.seed, start: run.start,
                           days: run.days, phones: profiles)
        }
        threads = run.threads
        startDayNumber = SimClock.dayNumber(run.start)
        reported = Array(repeating: false, count: phoneOS.count)
    }

    /// Feeds one day's checks (ordered by time, phone: `checkSessions`) after that day's
    /// `ExposureDetection.process`, then runs the models to the day's end (one model per shard:
    /// they share nothing). `availability` holds the day's states.
    package func day(end: SimTime, checks: [CheckSession], detection: ExposureDetection, availability: PhoneAvailability) {
        var runs: [Run] = []
        runs.reserveCapacity(checks.count)
        for c in checks {
            let phone = Int(c.phone)
            let profile = model.profiles[phone]
            // Phones whose app cannot run today made no checks (the distribution skips them).
            guard c.at >= profile.installTime, profile.exposurePermission else { checksSkipped += 1; continue }
            var risky: Int64? = nil
            if !reported[phone], let n = detection.notifications[c.phone], n.at <= c.at {
                reported[phone] = true
                risky = startDayNumber + Int64(n.exposureDayIndex)
            }
            runs.append(Run(phone: phone, at: c.at, riskyDay: risky, bluetoothOn: !availability.bluetoothOff[phone]))
        }
        detectionsFed += runs.count
        let models = Models(all: [model] + sweep), fed = runs
        forEachShard(count: models.all.count, threads: threads) { range in
            for m in range.map({ models.all[$0] }) {
                for r in fed { m.detectionRan(phone: r.phone, at: r.at, riskyExposureDay: r.riskyDay, bluetoothOn: r.bluetoothOn) }
                m.advance(until: end)
            }
        }
    }

    /// Adds the `analytics` summary section (with the detection source and, when configured, the
    /// p_OWOE sweep) and its tables.
    package func finish() -> (summary: AnalyticsSummary, tables: [NamedTable]) {
        var (section, tables) = model.finish()
        section.detections = .init(source: "simulated", detectionRuns: detectionsFed, checksSkipped: checksSkipped)
        if !sweep.isEmpty {
            let rows = sweep.map { m in m.advance(until: m.end); return AnalyticsSweep.row(model: m) }
            tables.append(NamedTable("sweep.csv", AnalyticsSweep.table(rows: rows)))
            section.sweep = rows
        }
        return (section, tables)
    }
}
