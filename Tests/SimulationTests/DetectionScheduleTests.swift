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
