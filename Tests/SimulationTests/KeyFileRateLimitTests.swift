@testable import Detection
import EventEngine
@testable import HealthBackend
import Testing

@Suite struct KeyFileQueueTests {
    let midnight: SimTime = 18_500 * SimDuration.day

    func download(_ phone: Int32, _ package: Int, at seconds: Int64) -> PackageDownload {
        PackageDownload(phone: phone, package: package, at: midnight + seconds)
    }

    @Test func eachPlatformChecksItsQuotaAndTheRestWaitsOldestFirst() {
        // Phone 0 is an iPhone (2 files a day), phone 1 Android (3 a day).
        var queue = KeyFileQueue(limit: KeyFileRateLimit(iosFilesPerDay: 2, androidFilesPerDay: 3), isIOS: [true, false])
        let day0 = (0..<5).map { download(0, $0, at: 3_600 * Int64(5 - $0)) } + (0..<3).map { download(1, $0, at: 100) }
        let checked0 = queue.admit(day0, midnight: midnight)
        #expect(checked0.map(\.package) == [4, 3, 0, 1, 2])   // iPhone: its two earliest downloads; Android: all three
        #expect(checked0.map(\.phone) == [0, 0, 1, 1, 1])
        #expect(queue.filesDeferred == 3 && queue.fileDaysDeferred == 3 && queue.filesPending == 3)
        // Next day: the waiting files come first, checked when the quota opens at midnight.
        let next = midnight + SimDuration.day
        let checked1 = queue.admit([PackageDownload(phone: 0, package: 5, at: next + 60)], midnight: next)
        #expect(checked1 == [PackageDownload(phone: 0, package: 2, at: next), PackageDownload(phone: 0, package: 1, at: next)])
        #expect(queue.filesDeferred == 4 && queue.fileDaysDeferred == 5 && queue.filesPending == 2)
        let checked2 = queue.admit([], midnight: next + SimDuration.day)
        #expect(checked2.map(\.package) == [0, 5])
        #expect(queue.filesPending == 0 && queue.filesChecked == 9)
        let summary = try! #require(queue.summary)
        #expect(summary.filesDeferred == 4 && summary.fileDaysDeferred == 5 && summary.filesPendingAtEnd == 0)
    }

    @Test func noLimitChecksEverythingAtOnceAndReportsNothing() {
        var queue = KeyFileQueue(limit: KeyFileRateLimit(), isIOS: [true])
        let day = (0..<40).map { download(0, $0, at: Int64(40 - $0)) }
        #expect(queue.admit(day, midnight: midnight) == day.sorted { $0.at < $1.at })
        #expect(queue.filesDeferred == 0 && queue.summary == nil)
        // A limit on one platform leaves the other unlimited.
        var androidOnly = KeyFileQueue(limit: KeyFileRateLimit(androidFilesPerDay: 1), isIOS: [true, false])
        let both = day + [download(1, 0, at: 5), download(1, 1, at: 6)]
        #expect(androidOnly.admit(both, midnight: midnight).count == 41 && androidOnly.filesDeferred == 1)
    }
}
