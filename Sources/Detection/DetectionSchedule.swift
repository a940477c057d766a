import Distribution
import EventEngine
import HealthBackend

/// When the app runs exposure detection (`app.detection.schedule`). Off (both 0), every check
/// that fetched files runs detection at once: the model before this option.
///
/// Sources: Immuni runs the download-and-detect cycle only when `exposure_detection_period`
/// (14,400 s in its June 2020 settings) has passed since the last detection (iOS
/// `ImmuniExposureDetectionExecutor`; Android re-enqueues `RequestDiagnosisKeysWorker` with that
/// delay). CWA 1.0–1.6 checked once a day (Android once per UTC day, iOS 24 h after the last
/// check: corona-warn-app/cwa-app-ios#1515, cwa-wishlist#133); from CWA 1.7 (November 2020) every
/// 4 hours, 6 a day, on Wi-Fi and still once a day on mobile data (cwa-website#628, #632).
public struct DetectionSchedule: Sendable, Equatable {
    /// Least time between two detections of one phone; 0: none.
    public var minIntervalSeconds: Int64 = 0
    /// Most detections per phone and UTC day; 0: no limit.
    public var maxPerUTCDay = 0

    /// Per-platform overrides of the two values above; −1: the value above.
    public var ios = PlatformLimits()
    public var android = PlatformLimits()

    /// One platform's overrides (`app.detection.schedule.ios`, `.android`); −1 keeps the shared value.
    public struct PlatformLimits: Sendable, Equatable {
        public var minIntervalSeconds: Int64 = -1
        public var maxPerUTCDay = -1

        public init(minIntervalSeconds: Int64 = -1, maxPerUTCDay: Int = -1) {
            self.minIntervalSeconds = minIntervalSeconds
            self.maxPerUTCDay = maxPerUTCDay
        }

        public var isSet: Bool { minIntervalSeconds >= 0 || maxPerUTCDay >= 0 }
    }

    public init(minIntervalSeconds: Int64 = 0, maxPerUTCDay: Int = 0, ios: PlatformLimits = .init(), android: PlatformLimits = .init()) {
        self.minIntervalSeconds = minIntervalSeconds
        self.maxPerUTCDay = maxPerUTCDay
        self.ios = ios
        self.android = android
    }

    /// Whether a platform overrides a value: the summary then counts each platform apart.
    public var isPerPlatform: Bool { ios.isSet || android.isSet }

    /// The least interval and the most detections a day of one platform's phones (0: none).
    public func limits(isIOS: Bool) -> (minIntervalSeconds: Int64, maxPerUTCDay: Int) {
        let own = isIOS ? ios : android
        return (own.minIntervalSeconds >= 0 ? own.minIntervalSeconds : minIntervalSeconds, own.maxPerUTCDay >= 0 ? own.maxPerUTCDay : maxPerUTCDay)
    }

    public var isActive: Bool {
        [true, false].contains { limits(isIOS: $0).minIntervalSeconds > 0 || limits(isIOS: $0).maxPerUTCDay > 0 }
    }
}

/// What the schedule did over a run (summary.json `detection.schedule`, present only when a
/// schedule is set, so runs without one keep their outputs): all phones' schedule and counts as
/// the block's own fields, then the same per platform. Reads like its `all` (`summary.detections`).
@dynamicMemberLookup
public struct DetectionScheduleSummary: Equatable, Sendable, Encodable {
    /// All phones: the shared schedule and the counts summed over both platforms.
    public var all: Platform
    /// The same per platform, only when a platform overrides the schedule (nil is not encoded).
    public var ios: Platform?
    public var android: Platform?

    /// One schedule and its counts.
    public struct Platform: Equatable, Sendable, Encodable {
        public var minIntervalSeconds: Int64
        public var maxPerUTCDay: Int
        /// Detection runs (a phone's check that handed files to exposure detection).
        public var detections: Int64
        /// Files handed to detection.
        public var filesDetected: Int64
        /// Files detected later than they were fetched (they waited for the next due detection).
        public var filesHeld: Int64
        /// Mean hours from download to detection over all files detected (0 for files not held).
        public var meanHoursHeld: Double
        /// Files fetched but not yet detected when the run ended.
        public var filesPendingAtEnd: Int64

        package enum CodingKeys: String, CodingKey {
            case minIntervalSeconds = "min_interval_s", maxPerUTCDay = "max_per_utc_day", detections
            case filesDetected = "files_detected", filesHeld = "files_held", meanHoursHeld = "mean_hours_held"
            case filesPendingAtEnd = "files_pending_at_end"
        }
    }

    public subscript<T>(dynamicMember field: KeyPath<Platform, T>) -> T { all[keyPath: field] }

    package enum CodingKeys: String, CodingKey { case ios, android }

    /// `all`'s fields, then `ios` and `android`, in one object.
    public func encode(to encoder: any Encoder) throws {
        try all.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(ios, forKey: .ios)
        try container.encodeIfPresent(android, forKey: .android)
    }
}

fileprivate extension DetectionScheduleSummary.Platform {
    init(_ limits: (minIntervalSeconds: Int64, maxPerUTCDay: Int), _ c: DetectionScheduleQueue.Counts, pending: Int64) {
        self.init(minIntervalSeconds: limits.minIntervalSeconds, maxPerUTCDay: limits.maxPerUTCDay, detections: c.detections,
                  filesDetected: c.filesDetected, filesHeld: c.filesHeld,
                  meanHoursHeld: c.filesDetected > 0 ? Double(c.secondsHeld) / 3_600 / Double(c.filesDetected) : 0,
                  filesPendingAtEnd: pending)
    }
}

/// Per phone, the fetched files waiting for the next detection the schedule allows.
///
/// A phone can detect at each of its successful checks (a check that fetched files is one): it
/// does when it holds files and the schedule allows it (at least `minIntervalSeconds` after its
/// last detection, fewer than `maxPerUTCDay` detections that UTC day). Then every file it holds
/// is handed to detection at that check's time; a check without files runs no detection, as
/// Immuni's "no new keys, no detection" and CWA's skip of an empty download.
package struct DetectionScheduleQueue {
    package let schedule: DetectionSchedule
    private var pending: [Int32: [PackageDownload]] = [:]
    private var lastDetection: [Int32: SimTime] = [:]
    /// Per phone: UTC day number of its last detection and detections that day.
    private var detectionsOfDay: [Int32: (day: Int64, count: Int)] = [:]
    private let isIOS: [Bool]
    /// Counts per platform, indexed by `platform(_:)` (0 Android, 1 iOS).
    private var counts = [Counts](repeating: Counts(), count: 2)
    /// The detections of the last `release`, ordered by (time, phone): Immuni's analytics counts
    /// these, not every check, when a schedule is set.
    package private(set) var lastRuns: [CheckSession] = []

    fileprivate struct Counts {
        var detections: Int64 = 0, filesDetected: Int64 = 0, filesHeld: Int64 = 0, secondsHeld: Int64 = 0

        static func + (a: Counts, b: Counts) -> Counts {
            Counts(detections: a.detections + b.detections, filesDetected: a.filesDetected + b.filesDetected,
                   filesHeld: a.filesHeld + b.filesHeld, secondsHeld: a.secondsHeld + b.secondsHeld)
        }
    }

    /// - Parameter isIOS: OS of each app phone (PhoneFleet order), for per-platform schedules;
    ///   phones beyond it count as Android.
    package init(schedule: DetectionSchedule, isIOS: [Bool] = []) {
        self.schedule = schedule
        self.isIOS = isIOS
    }

    private func platform(_ phone: Int32) -> Int { Int(phone) < isIOS.count && isIOS[Int(phone)] ? 1 : 0 }

    package var detections: Int64 { counts[0].detections + counts[1].detections }
    package var filesDetected: Int64 { counts[0].filesDetected + counts[1].filesDetected }
    package var filesHeld: Int64 { counts[0].filesHeld + counts[1].filesHeld }
    package var secondsHeld: Int64 { counts[0].secondsHeld + counts[1].secondsHeld }

    package var filesPending: Int64 { Int64(pending.values.reduce(0) { $0 + $1.count }) }

    private func filesPending(platform: Int) -> Int64 {
        Int64(pending.reduce(0) { $0 + (self.platform($1.key) == platform ? $1.value.count : 0) })
    }

    /// The files detected among `downloads` (a day's, any order) and those held from earlier,
    /// re-timed to their detection, ordered by (phone, time, package). `checks`: the day's
    /// successful checks of app phones (each download's own time counts as one too).
    /// Unchanged when the schedule is off.
    package mutating func release(_ downloads: [PackageDownload], checks: [CheckSession]) -> [PackageDownload] {
        guard schedule.isActive else { return downloads }
        lastRuns.removeAll(keepingCapacity: true)
        var byPhone: [Int32: [PackageDownload]] = [:]
        for d in downloads { byPhone[d.phone, default: []].append(d) }
        var checksByPhone: [Int32: [SimTime]] = [:]
        for c in checks where byPhone[c.phone] != nil || pending[c.phone] != nil { checksByPhone[c.phone, default: []].append(c.at) }
        var out: [PackageDownload] = []
        for phone in Set(byPhone.keys).union(pending.keys).sorted() {
            let fetched = (byPhone[phone] ?? []).sorted { ($0.at, $0.package) < ($1.at, $1.package) }
            let times = Set((checksByPhone[phone] ?? []) + fetched.map(\.at)).sorted()
            var held = pending.removeValue(forKey: phone) ?? []
            var next = 0
            for t in times {
                while next < fetched.count && fetched[next].at <= t { held.append(fetched[next]); next += 1 }
                guard !held.isEmpty, isDue(phone: phone, at: t) else { continue }
                noteDetection(phone: phone, at: t)
                lastRuns.append(CheckSession(phone: phone, at: t))
                for d in held.sorted(by: { $0.package < $1.package }) {
                    out.append(PackageDownload(phone: phone, package: d.package, at: t))
                    if d.at < t { counts[platform(phone)].filesHeld += 1; counts[platform(phone)].secondsHeld += t - d.at }
                }
                counts[platform(phone)].filesDetected += Int64(held.count)
                held.removeAll()
            }
            held += fetched[next...]
            if !held.isEmpty { pending[phone] = held }
        }
        lastRuns.sort { ($0.at, $0.phone) < ($1.at, $1.phone) }
        return out
    }

    private func isDue(phone: Int32, at t: SimTime) -> Bool {
        let limits = schedule.limits(isIOS: platform(phone) == 1)
        if limits.minIntervalSeconds > 0, let last = lastDetection[phone], t - last < limits.minIntervalSeconds { return false }
        if limits.maxPerUTCDay > 0, let today = detectionsOfDay[phone], today.day == SimClock.dayNumber(t),
           today.count >= limits.maxPerUTCDay { return false }
        return true
    }

    private mutating func noteDetection(phone: Int32, at t: SimTime) {
        counts[platform(phone)].detections += 1
        lastDetection[phone] = t
        let day = SimClock.dayNumber(t)
        let count = detectionsOfDay[phone].map { $0.day == day ? $0.count : 0 } ?? 0
        detectionsOfDay[phone] = (day, count + 1)
    }

    package var summary: DetectionScheduleSummary? {
        guard schedule.isActive else { return nil }
        func split(_ p: Int) -> DetectionScheduleSummary.Platform? {
            schedule.isPerPlatform ? .init(schedule.limits(isIOS: p == 1), counts[p], pending: filesPending(platform: p)) : nil
        }
        return DetectionScheduleSummary(all: .init((schedule.minIntervalSeconds, schedule.maxPerUTCDay), counts[0] + counts[1], pending: filesPending),
                                        ios: split(1), android: split(0))
    }
}
