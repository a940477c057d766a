@testable import Analytics
@testable import Detection
import EventEngine
import GSL
@testable import HealthBackend
@testable import Simulation
@testable import SimulationCore
import Testing
@testable import World

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

@Suite struct AnalyticsAttackTests {
    /// Each attack gets at most what the seeds allow, and the report says so.
    @Test func attacksAreBoundedAsTheSeedsClaim() {
        let days = 61
        let model = AnalyticsTests.run(phones: 600, days: days) {
            $0.riskyExposurePerDay = 0.02
            $0.attacks.iOSTokenFarmDevices = 3
            $0.attacks.iOSReplaysPerMonth = 3
            $0.attacks.androidReplaysPerMonth = 10
            $0.attacks.androidReinstallDevices = 2
            $0.attacks.androidNonGenuineDevices = 2
        }
        let l = model.ledger
        func sent(_ s: RequestSource) -> Int { l.requestsBySource[s.rawValue] }
        func accepted(_ s: RequestSource) -> Int { l.acceptedBySource[s.rawValue] }
        // iOS: 60 requests a month per farm device, yet one token per genuine device per month.
        #expect(sent(.iOSTokenFarm) > 3 * 100)
        #expect(l.maxAuthorisationsPerDeviceMonth(.iOSTokenFarm) == 1)
        #expect(l.authorisationsBySource[RequestSource.iOSTokenFarm.rawValue] == 3 * 2)
        #expect(l.maxAuthorisationsPerDeviceMonth(.legitimate) == 1)
        // ≤ 2 + 2 uploads per token: the farm tries 3 + 3 per token.
        for record in model.service.authorised.values { #expect(record.withExposure <= 2 && record.withoutExposure <= 2) }
        #expect(accepted(.iOSTokenFarm) == 4 * 3 * 2)
        #expect(l.rejectedTokenCap >= 2 * 3 * 2)
        // A replayed authorisation request blacklists the legitimate device (the cost the seed accepts).
        #expect(AnalyticsReport(model: model).legitimateDevicesBlacklisted >= 1)
        // Android: replays never pass (salt seen within 10 minutes, or attestation older than 10 minutes).
        #expect(sent(.androidReplay) == 2 * 10)
        #expect(accepted(.androidReplay) == 0)
        #expect(l.rejectedSaltSeen > 0 && l.rejectedStaleAttestation > 0)
        // Reinstalls and clock changes: at most one upload a day per device (24 h by server time).
        #expect(accepted(.androidReinstall) > 0 && accepted(.androidReinstall) <= 2 * days)
        // Non-genuine devices fail attestation.
        #expect(sent(.androidNonGenuine) > 2 * 24 * (days - 1))
        #expect(accepted(.androidNonGenuine) == 0)
    }
}

@Suite struct AnalyticsEstimateTests {
    /// Without attacks, the national estimates track the ground truth; the Bluetooth-off share is
    /// unbiased (the truth lies in the estimate's 99.9% interval).
    @Test func estimatesTrackTheTruth() {
        let model = AnalyticsTests.run(phones: 3_000, days: 61, seed: 11) { $0.riskyExposurePerDay = 0.01 }
        let report = AnalyticsReport(model: model)
        for m in model.ledger.months.indices {
            let e = report.estimates(month: m, region: nil)
            #expect(abs(e.working.relativeError) < 0.1, "working apps \(e.working)")
            #expect(abs(e.notified.relativeError) < 0.1, "notified \(e.notified)")
            let c = report.cell(month: m, region: nil)
            let ci = Proportion.clopperPearson(successes: c.uploadsWithoutBluetoothOff, trials: c.uploadsWithout, confidence: 0.999)
            #expect(ci.contains(e.bluetoothOff.truth))
            #expect(c.polluted == 0)
        }
    }

    /// Same seed, same results; the sweep gives identical rows whatever the thread count.
    @Test func deterministicWhateverTheThreadCount() throws {
        var p = AnalyticsParameters()
        p.enabled = true
        p.sweepPWithoutExposure = [0.2, 1.0]
        let os = (0..<300).map { $0 % 3 == 0 ? OperatingSystem.iOS : .android }
        func sweep(threads: Int) -> (summary: AnalyticsSummary, tables: [NamedTable]) {
            AnalyticsRun.synthetic(parameters: p, seed: 5, start: AnalyticsTests.start, days: 35, phoneOS: os, availability: .default,
                                   threads: threads).finish()
        }
        let one = sweep(threads: 1), two = sweep(threads: 2)
        #expect(one.tables.map(\.name).contains("sweep.csv"))
        #expect(one.tables == two.tables && one.summary == two.summary)
        let rows = try #require(one.summary.sweep)
        #expect(rows.count == 2 && rows[0].requests < rows[1].requests)
        let a = AnalyticsRun.run(parameters: p, seed: 5, start: AnalyticsTests.start, days: 35, phoneOS: os, availability: .default).finish()
        let b = AnalyticsRun.run(parameters: p, seed: 5, start: AnalyticsTests.start, days: 35, phoneOS: os, availability: .default).finish()
        #expect(a.summary == b.summary && a.tables == b.tables)
    }
}
