@testable import Detection
import Distribution
import EventEngine
@testable import HealthBackend
import Testing

@Suite struct DetectionScheduleQueueTests {
    let midnight: SimTime = 18_500 * SimDuration.day
    let hour: SimTime = 3_600

    func download(_ phone: Int32, _ package: Int, atHour h: Int64) -> PackageDownload {
        PackageDownload(phone: phone, package: package, at: midnight + h * hour)
    }

    func checks(_ phone: Int32, hours: ClosedRange<Int64>) -> [CheckSession] {
        hours.map { CheckSession(phone: phone, at: midnight + $0 * hour) }
    }

    /// Immuni's 4-hour period: hourly files wait for the next check 4 h after the last detection.
    @Test func filesFetchedBetweenDetectionsWaitForTheNextDueCheck() {
        var queue = DetectionScheduleQueue(schedule: DetectionSchedule(minIntervalSeconds: 4 * 3_600))
        // One file an hour at hours 1…9, a check every hour 1…23.
        let fetched = (1...9).map { download(0, Int($0), atHour: $0) }
        let out = queue.release(fetched, checks: checks(0, hours: 1...23))
        // Detections at 1 (file 1), 5 (files 2–5), 9 (files 6–9); hours 13, 17, 21 hold nothing.
        #expect(out.map(\.package) == Array(1...9))
        #expect(out.map { ($0.at - midnight) / hour } == [1, 5, 5, 5, 5, 9, 9, 9, 9])
        #expect(queue.detections == 3 && queue.filesDetected == 9 && queue.filesHeld == 6)
        #expect(queue.lastRuns == [1, 5, 9].map { CheckSession(phone: 0, at: midnight + $0 * hour) })
        // Held: 3+2+1 hours for files 2–4 and again for 6–8.
        #expect(queue.secondsHeld == 12 * hour)
        let summary = try! #require(queue.summary)
        #expect(summary.meanHoursHeld == 12.0 / 9 && summary.filesPendingAtEnd == 0)
    }

    @Test func onceAUTCDayCarriesFilesToTheNextDay() {
        var queue = DetectionScheduleQueue(schedule: DetectionSchedule(maxPerUTCDay: 1))
        let day0 = [download(3, 0, atHour: 2), download(3, 1, atHour: 20)]
        let out0 = queue.release(day0, checks: checks(3, hours: 2...23))
        #expect(out0 == [download(3, 0, atHour: 2)])
        #expect(queue.filesPending == 1)
        // Next day: the held file goes with the first check, with that day's new file not yet fetched.
        let out1 = queue.release([download(3, 2, atHour: 30)], checks: checks(3, hours: 25...47))
        #expect(out1 == [download(3, 1, atHour: 25)])
        #expect(queue.filesPending == 1 && queue.filesHeld == 1 && queue.detections == 2)
    }

    @Test func withoutChecksADownloadIsItsOwnCheckAndOffChangesNothing() {
        var queue = DetectionScheduleQueue(schedule: DetectionSchedule(minIntervalSeconds: 2 * 3_600))
        let fetched = [download(1, 0, atHour: 1), download(1, 1, atHour: 2), download(1, 2, atHour: 3), download(0, 3, atHour: 5)]
        let out = queue.release(fetched, checks: [])
        // Phone 0 first; phone 1 detects at 1 and 3 (file 1 waits from 2 to 3).
        #expect(out == [download(0, 3, atHour: 5), download(1, 0, atHour: 1), download(1, 1, atHour: 3), download(1, 2, atHour: 3)])
        var off = DetectionScheduleQueue(schedule: DetectionSchedule())
        #expect(off.release(fetched, checks: []) == fetched && off.summary == nil && off.detections == 0)
    }
}

/// Per-platform schedules (`app.detection.schedule.ios`, `.android`).
@Suite struct PerPlatformDetectionScheduleTests {
    let midnight: SimTime = 18_500 * SimDuration.day
    let hour: SimTime = 3_600

    /// Phone 0 is an iPhone, phone 1 an Android phone; each fetches a file every hour 1…23 and checks hourly.
    func run(_ schedule: DetectionSchedule) -> (DetectionScheduleQueue, [PackageDownload]) {
        var queue = DetectionScheduleQueue(schedule: schedule, isIOS: [true, false])
        let fetched = (0..<2).flatMap { phone in (1...23).map { PackageDownload(phone: Int32(phone), package: Int($0), at: midnight + $0 * hour) } }
        let out = queue.release(fetched, checks: [])
        return (queue, out)
    }

    @Test func eachPlatformGetsItsOwnLimits() throws {
        // iPhones every 8 hours (shared value), Android phones once a UTC day (their own).
        let schedule = DetectionSchedule(minIntervalSeconds: 8 * 3_600, android: .init(minIntervalSeconds: 0, maxPerUTCDay: 1))
        #expect(schedule.limits(isIOS: true) == (8 * 3_600, 0) && schedule.limits(isIOS: false) == (0, 1))
        let (queue, out) = run(schedule)
        let ios = out.filter { $0.phone == 0 }, android = out.filter { $0.phone == 1 }
        #expect(Set(ios.map { ($0.at - midnight) / hour }) == [1, 9, 17])
        #expect(android.map(\.package) == [1])
        let summary = try #require(queue.summary)
        let i = try #require(summary.ios), a = try #require(summary.android)
        #expect(i.minIntervalSeconds == 8 * 3_600 && i.maxPerUTCDay == 0 && a.minIntervalSeconds == 0 && a.maxPerUTCDay == 1)
        #expect(i.detections == 3 && a.detections == 1 && summary.detections == 4)
        // iPhone: 17 files detected (1, 2–9, 10–17), 14 of them held; 6 still waiting, like Android's 22.
        #expect(i.filesDetected == 17 && i.filesHeld == 14 && i.filesPendingAtEnd == 6)
        #expect(a.filesDetected == 1 && a.filesHeld == 0 && a.filesPendingAtEnd == 22)
        #expect(summary.filesDetected == i.filesDetected + a.filesDetected && summary.filesHeld == i.filesHeld + a.filesHeld)
        #expect(summary.filesPendingAtEnd == 28)
    }

    /// Without overrides the summary has no per-platform blocks, and the queue acts as before.
    @Test func withoutOverridesNothingChanges() throws {
        let shared = DetectionSchedule(minIntervalSeconds: 4 * 3_600)
        let (queue, out) = run(shared)
        var unsplit = DetectionScheduleQueue(schedule: shared)
        let fetched = (0..<2).flatMap { phone in (1...23).map { PackageDownload(phone: Int32(phone), package: Int($0), at: midnight + $0 * hour) } }
        #expect(unsplit.release(fetched, checks: []) == out)
        let summary = try #require(queue.summary)
        #expect(summary.ios == nil && summary.android == nil && summary == unsplit.summary)
        // An override equal to "none" for both platforms switches the schedule off.
        #expect(!DetectionSchedule(ios: .init(minIntervalSeconds: 0), android: .init(maxPerUTCDay: 0)).isActive)
        #expect(DetectionSchedule(ios: .init(maxPerUTCDay: 1)).isActive)
    }
}
