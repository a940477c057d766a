import EventEngine
import GSL
import Testing
@testable import Simulation

@Suite struct AnalyticsTests {
    static let start = CivilCalendar.parseISODateToTime("2020-06-01")!

    /// Every number the seeds give is a default.
    @Test func seedNumbersAreDefaults() {
        let p = AnalyticsParameters.default
        #expect(p.pWithExposure == 1)
        #expect(p.windowSeconds == 86_400)
        #expect(p.uploadsPerTokenPerKind == 2)
        #expect(p.replayWindowMs == 600_000)
        #expect(p.androidQuietAfterInstallSeconds == 86_400)
        #expect(p.maxReadTimeMs == 3_000)            // immuni-backend-analytics READ_TIME
        #expect(p.checkTimeMs == 7_000)              // immuni-backend-analytics CHECK_TIME
        #expect(p.checkTimeBoundMs == 7_000)         // max_read_time + 2 · timeout
        #expect(p.checkTimeMs >= p.checkTimeBoundMs)
        #expect(p.iOSDetectionPeriodSeconds == 14_400)  // Immuni exposure_detection_period
        #expect(ItalianRegions.all.count == 21)
        #expect(ItalianRegions.all.map(\.population).reduce(0, +) == 59_641_488)
    }

    /// T_ATN = next month's 1st 00:00 UTC + U[0, (n_days − 1)·86400]: always inside the next month, never its last day.
    @Test func nextTokenTimeFallsInNextMonth() {
        let s = RandomStream(seed: 1, stream: "t")
        for date in ["2020-01-31", "2020-02-10", "2021-02-10", "2020-12-15"] {
            let t = CivilCalendar.parseISODateToTime(date)!
            let next = YearMonth(containing: t).next
            var latest: SimTime = 0
            for _ in 0..<2_000 {
                let tatn = AnalyticsModel.nextTokenTime(after: t, s)
                #expect(tatn >= next.start && tatn <= next.start + Int64(next.numberOfDays - 1) * SimDuration.day)
                latest = max(latest, tatn)
            }
            #expect(latest > next.start + Int64(next.numberOfDays - 2) * SimDuration.day)  // reaches the last allowed day
        }
    }

    static func run(phones: Int, days: Int, iOSShare: Double = 0.5, seed: UInt64 = 7, configure: (inout AnalyticsParameters) -> Void = { _ in })
        -> AnalyticsModel {
        var p = AnalyticsParameters()
        p.enabled = true
        configure(&p)
        let os = (0..<phones).map { $0 < Int(Double(phones) * iOSShare) ? OperatingSystem.iOS : .android }
        let model = AnalyticsRun.run(parameters: p, seed: seed, start: start, days: days, phoneOS: os, availability: .default)
        model.advance(until: model.end)
        return model
    }

    /// Genuine phones: at most one authorised token per device and month, at most 2 + 2 accepted uploads per token,
    /// at most one upload of each kind per phone and month, no spike on the 1st.
    @Test func legitimatePhonesRespectTheLimits() {
        let model = Self.run(phones: 2_000, days: 75) { $0.riskyExposurePerDay = 0.05; $0.pWithoutExposure = 1 }
        #expect(model.ledger.maxAuthorisationsPerDeviceMonth() == 1)
        #expect(model.ledger.doubleAuthorisations() == 0)
        #expect(model.ledger.blacklistings == 0)
        for (_, record) in model.service.authorised {
            #expect(record.withExposure <= 2 && record.withoutExposure <= 2)
        }
        // Tokens get authorised every month (one per iOS device that ran a detection after T_ATN).
        #expect(model.ledger.authorisationsBySource[0] > 1_000 * 2)
        for m in model.ledger.months.indices {
            let c = AnalyticsReport(model: model).cell(month: m, region: nil)
            #expect(c.uploadsWithout <= 2_000 && c.uploadsWith <= 2_000)
        }
        let ratio = AnalyticsReport(model: model).load.firstOfMonthRatio
        #expect(ratio > 0.5 && ratio < 1.6, "1sts of months carry about an average day's requests, got \(ratio)")
    }
}
