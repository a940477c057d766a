import EventEngine
import GSL

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
final class SimulatedDetections {
    let model: AnalyticsModel
    let startDayNumber: Int64
    /// Whether each phone's notification has reached the analytics.
    private var reported: [Bool]
    private(set) var detectionsFed = 0
    private(set) var checksSkipped = 0

    init(config: SimulationConfig, phoneOS: [OperatingSystem]) {
        let p = config.analytics
        model = AnalyticsModel(parameters: p, seed: config.seed, start: config.start, days: config.days,
                               phones: AnalyticsRun.profiles(phoneOS: phoneOS, parameters: p, seed: config.seed, start: config.start))
        startDayNumber = SimClock.dayNumber(config.start)
        reported = Array(repeating: false, count: phoneOS.count)
    }

    /// Feeds one day's checks (ordered by time, phone: `checkSessions`) after that day's
    /// `ExposureDetection.process`, then runs the model to the day's end. `availability` holds the day's states.
    func day(end: SimTime, checks: [CheckSession], detection: ExposureDetection, availability: PhoneAvailability) {
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
            model.detectionRan(phone: phone, at: c.at, riskyExposureDay: risky, bluetoothOn: !availability.bluetoothOff[phone])
            detectionsFed += 1
        }
        model.advance(until: end)
    }

    /// Adds the `analytics` summary section (with the detection source) and its tables.
    /// No p_OWOE sweep: it would need the whole detection stream replayed per value.
    func attached(to results: SimulationResults) -> SimulationResults {
        var (section, tables) = model.finish()
        if case .object(var entries) = section {
            entries.append(("detections", .object([("source", .text("simulated")), ("detection_runs", .integer(Int64(detectionsFed))),
                                                   ("checks_skipped", .integer(Int64(checksSkipped)))])))
            section = .object(entries)
        }
        return AnalyticsRun.appending(section: section, tables: tables, to: results)
    }
}
