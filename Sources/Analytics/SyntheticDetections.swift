import EventEngine
import GSL
import World

/// A phone's state on one day, as the detection source needs it.
public struct PhoneDayState: Sendable, Equatable {
    /// The app runs detections today (installed, phone on, not force-closed, permission granted).
    public var runsDetections: Bool
    public var bluetoothOn: Bool

    public init(runsDetections: Bool, bluetoothOn: Bool) {
        self.runsDetections = runsDetections
        self.bluetoothOn = bluetoothOn
    }
}

/// Built-in detection source: each phone runs exposure detections every period (per OS),
/// each deferred by the OS by up to `detectionDeferralShare` of the period, at a phase drawn
/// per (phone, day); on a day with a risky exposure (daily probability) one of the day's
/// detections finds it. Draws come from per-(phone, day) streams.
public struct SyntheticDetections {
    public let parameters: AnalyticsParameters
    public let seed: UInt64
    private let stream: RandomStream

    public init(parameters: AnalyticsParameters, seed: UInt64) {
        self.parameters = parameters
        self.seed = seed
        stream = RandomStream(seed: seed, stream: "analytics.detections", generator: .taus2)
    }

    /// Detection times (seconds) of one phone on the day starting at `midnight`, and the index of
    /// the detection that finds a risky exposure (with the exposure's day), if any.
    public func day(phone: Int, os: OperatingSystem, midnight: SimTime, notBefore: SimTime)
        -> (times: [SimTime], risky: (index: Int, day: Int64)?) {
        stream.reseed(StreamKey(seed: seed, stream: "analytics.detections", index: UInt64(phone) << 24 | UInt64(SimClock.dayNumber(midnight) & 0xff_ffff)))
        let period = os == .iOS ? parameters.iOSDetectionPeriodSeconds : parameters.androidDetectionPeriodSeconds
        var times: [SimTime] = []
        var t = midnight + Int64(stream.uniform() * Double(period))
        while t < midnight + SimDuration.day {
            if t >= notBefore { times.append(t) }
            t += period + Int64(stream.uniform() * parameters.detectionDeferralShare * Double(period))
        }
        let riskyToday = stream.uniform() < parameters.riskyExposurePerDay
        let which = stream.uniformInt(max(1, times.count))
        let daysAgo = Int64(stream.uniformInt(5))   // exposure 0–4 days before the notification
        guard riskyToday, !times.isEmpty else { return (times, nil) }
        return (times, (which, SimClock.dayNumber(midnight) - daysAgo))
    }

    /// Feeds one day of detections of every phone into the model, then advances it to the day's end.
    public func run(day midnight: SimTime, model: AnalyticsModel, states: (Int) -> PhoneDayState) {
        for phone in model.profiles.indices {
            let profile = model.profiles[phone]
            guard profile.installTime < midnight + SimDuration.day, profile.exposurePermission else { continue }
            let state = states(phone)
            guard state.runsDetections else { continue }
            let (times, risky) = day(phone: phone, os: profile.os, midnight: midnight, notBefore: profile.installTime)
            for (i, t) in times.enumerated() {
                model.detectionRan(phone: phone, at: t, riskyExposureDay: risky?.index == i ? risky?.day : nil, bluetoothOn: state.bluetoothOn)
            }
        }
        model.advance(until: midnight + SimDuration.day)
    }
}
