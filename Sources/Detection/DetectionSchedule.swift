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

    public init(minIntervalSeconds: Int64 = 0, maxPerUTCDay: Int = 0) {
        self.minIntervalSeconds = minIntervalSeconds
        self.maxPerUTCDay = maxPerUTCDay
    }

    public var isActive: Bool { minIntervalSeconds > 0 || maxPerUTCDay > 0 }
}

/// What the schedule did over a run (summary.json `detection.schedule`, present only when a
/// schedule is set, so runs without one keep their outputs).
public struct DetectionScheduleSummary: Equatable, Sendable, Encodable {
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
    package private(set) var detections: Int64 = 0
    package private(set) var filesDetected: Int64 = 0
    package private(set) var filesHeld: Int64 = 0
    package private(set) var secondsHeld: Int64 = 0
    /// The detections of the last `release`, ordered by (time, phone): Immuni's analytics counts
    /// these, not every check, when a schedule is set.
    package private(set) var lastRuns: [CheckSession] = []

    package init(schedule: DetectionSchedule) {
        self.schedule = schedule
    }

    package var filesPending: Int64 { Int64(pending.values.reduce(0) { $0 + $1.count }) }

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
                    if d.at < t { filesHeld += 1; secondsHeld += t - d.at }
                }
                filesDetected += Int64(held.count)
                held.removeAll()
            }
            held += fetched[next...]
            if !held.isEmpty { pending[phone] = held }
        }
        lastRuns.sort { ($0.at, $0.phone) < ($1.at, $1.phone) }
        return out
    }

    private func isDue(phone: Int32, at t: SimTime) -> Bool {
        if schedule.minIntervalSeconds > 0, let last = lastDetection[phone], t - last < schedule.minIntervalSeconds { return false }
        if schedule.maxPerUTCDay > 0, let today = detectionsOfDay[phone], today.day == SimClock.dayNumber(t),
           today.count >= schedule.maxPerUTCDay { return false }
        return true
    }

    private mutating func noteDetection(phone: Int32, at t: SimTime) {
        detections += 1
        lastDetection[phone] = t
        let day = SimClock.dayNumber(t)
        let count = detectionsOfDay[phone].map { $0.day == day ? $0.count : 0 } ?? 0
        detectionsOfDay[phone] = (day, count + 1)
    }

    package var summary: DetectionScheduleSummary? {
        guard schedule.isActive else { return nil }
        return DetectionScheduleSummary(minIntervalSeconds: schedule.minIntervalSeconds, maxPerUTCDay: schedule.maxPerUTCDay,
                                        detections: detections, filesDetected: filesDetected, filesHeld: filesHeld,
                                        meanHoursHeld: filesDetected > 0 ? Double(secondsHeld) / 3_600 / Double(filesDetected) : 0,
                                        filesPendingAtEnd: filesPending)
    }
}
