@testable import Analytics
@testable import Detection
@testable import Distribution
import EventEngine
import GSL
@testable import Simulation
@testable import SimulationCore
import Testing
@testable import World

/// `analytics.detections: simulated`: the analytics model fed by the run's own checks and notifications.
@Suite struct AnalyticsSimulatedTests {
    /// An Immuni-flavoured run crossing 1 November; notifications reach the analytics unhindered
    /// (permission granted, no phone-off, force-closed or uninstalled days) so the truth is checkable.
    static func config(_ detections: AnalyticsParameters.DetectionSource, days: Int = 9, threads: Int = 1) -> SimulationConfig {
        var c = PipelineRunTests.config(.immuni, people: 800, days: days, casesPerDay: 25, threads: threads, national: 20)
        c.start = CivilCalendar.time(year: 2020, month: 10, day: 25)
        c.analytics.enabled = true
        c.analytics.detections = detections
        c.analytics.exposurePermissionShare = 1
        c.analytics.pWithExposure = 1
        c.analytics.pWithoutExposure = 1
        c.availability.phoneOff = 0
        c.availability.appForceClosed = 0
        c.availability.uninstallPerDay = 0
        return c
    }

    static func number(_ v: ResultTable.Cell?) -> Double {
        switch v {
        case .number(let x)?: return x
        case .integer(let n)?: return Double(n)
        default: Issue.record("missing \(String(describing: v))"); return .nan
        }
    }

    static func months(_ results: SimulationResults) -> [AnalyticsSummary.Month] {
        guard let months = results.summary.analytics?.months else { Issue.record("no analytics months"); return [] }
        return months
    }

    @Test func notifiedTruthIsTheRunsNotificationsAndIdenticalWhateverTheThreads() throws {
        let sim = try Simulation(config: Self.config(.simulated))
        let one = try sim.run()
        let two = try Simulation(config: Self.config(.simulated, threads: 2)).run()
        #expect(one == two)

        // Cross-check: the analytics' notified users of each month are the phones ExposureDetection
        // notified in that month (each notification is reported at the check that produced it).
        let months = Self.months(one)
        #expect(months.count == 2)
        var byMonth: [String: Int] = [:]
        for (_, n) in sim.detection.notifications { byMonth[YearMonth(containing: n.at).description, default: 0] += 1 }
        var total = 0.0
        for m in months {
            let name = m.month
            let notified = m.notifiedUsers
            let truth = notified.truth
            #expect(truth == Double(byMonth[name] ?? 0) && truth > 0, "\(name): \(truth) vs \(byMonth)")
            total += truth
            // p_OWE = 1: every notified phone uploads, so the truth lies in the estimate's interval.
            #expect(notified.lower <= truth && truth <= notified.upper, "\(name): \(notified)")
            // Working apps: every phone-day with a completed check counts (no availability losses here).
            #expect(m.workingApps.truth > 0.8 * Double(sim.fleet.count))
        }
        #expect(total > 0 && Int(total) == sim.detection.notifications.count)

        // Bluetooth off (unbiased, from the run's own availability): the truth lies in the 99.9%
        // interval of the uploads' share, nationally each month.
        let monthly = try #require(one.tables.first { $0.name == "monthly.csv" }?.table)
        let region = monthly.column("region"), n = monthly.column("uploads_without_exposure")
        let share = monthly.column("bluetooth_off_estimate"), truth = monthly.column("bluetooth_off_truth")
        for i in region.indices where region[i] == .text("all") {
            let uploads = Int(Self.number(n[i]))
            #expect(uploads > 20)
            let ci = Proportion.clopperPearson(successes: Int((Self.number(share[i]) * Double(uploads)).rounded()), trials: uploads, confidence: 0.999)
            #expect(ci.contains(Self.number(truth[i])), "\(ci) vs \(truth[i])")
        }
        let source = try #require(one.summary.analytics?.detections)
        #expect(source.source == "simulated")
        #expect(source.detectionRuns <= one.summary.distribution.sessions)
        #expect(Double(source.detectionRuns) > Double(20 * 9 * sim.fleet.count) * 0.8)
    }

    /// Every completed check of a contact phone is a session, failed ones are not; download-only
    /// clients and models that do not record report none.
    @Test func distributionReportsCompletedChecks() throws {
        var p = DistributionTests.quiet
        p.clients = 50
        p.cdnErrorRate = 0.05
        let start = CivilCalendar.time(year: 2020, month: 10, day: 1)
        let model = DistributionModel(parameters: p, flavor: .immuni, seed: 4, start: start,
                                      contactPhoneIsIOS: (0..<50).map { $0 % 3 == 0 }, threads: 2)
        _ = model.advance(until: start + 3_600)
        #expect(model.checkSessions.isEmpty)
        model.recordsCheckSessions = true
        _ = model.advance(until: start + 6 * 3_600)
        let checks = model.checkSessions
        #expect(checks.allSatisfy { $0.phone < 50 && $0.at >= start + 3_600 && $0.at < start + 6 * 3_600 })
        #expect(checks == checks.sorted { ($0.at, $0.phone) < ($1.at, $1.phone) })
        // A failed Immuni session fails on exactly one request: completed = sessions − errors.
        // Hours 1–5 of distribution_hourly.csv (the load history forgets the hours it has sent).
        let hours = try #require((model.hourStream as? MemoryTableStream)?.table)
        func total(_ column: String) -> Int {
            hours.column(column)[1..<6].reduce(0) { sum, cell in if case .integer(let v) = cell { sum + Int(v) } else { sum } }
        }
        #expect(hours.count == 6 && total("errors") > 0)
        #expect(checks.count == total("sessions") - total("errors"))
        let other = DistributionModel(parameters: p, flavor: .immuni, seed: 4, start: start,
                                      contactPhoneIsIOS: (0..<10).map { $0 % 3 == 0 }, threads: 1)
        other.recordsCheckSessions = true
        _ = other.advance(until: start + 3 * 3_600)
        #expect(!other.checkSessions.isEmpty && other.checkSessions.allSatisfy { $0.phone < 10 })
    }

    /// Synthetic mode ignores the run's checks (none are recorded) and gives what the standalone
    /// synthetic model gives.
    @Test func syntheticModeIsUnchanged() throws {
        let config = Self.config(.synthetic, days: 3)
        let sim = try Simulation(config: config)
        let results = try sim.run()
        #expect(sim.distribution.checkSessions.isEmpty)
        let direct = AnalyticsRun.run(parameters: config.analytics, seed: config.seed, start: config.start, days: config.days,
                                      phoneOS: Population(config.population, seed: config.seed).phoneOS, availability: config.availability).finish()
        #expect(results.summary.analytics == direct.summary)
        #expect(results.summary.analytics != nil && results.summary.analytics?.detections == nil)
    }

    /// The p_OWOE sweep in simulated mode: the same detection runs feed one model per value, so a
    /// larger p_OWOE gives more uploads and a narrower interval; the main model is untouched.
    @Test func sweepReusesTheRunsDetections() throws {
        var config = Self.config(.simulated)
        config.analytics.pWithoutExposure = 0.5
        let plain = try Simulation(config: config).run()
        config.analytics.sweepPWithoutExposure = [0.2, 1]
        let swept = try Simulation(config: config).run()
        config.threads = 2
        #expect(try Simulation(config: config).run() == swept)
        #expect(swept.summary.analytics?.months == plain.summary.analytics?.months)
        guard let rows = swept.summary.analytics?.sweep, rows.count == 2 else { Issue.record("no sweep"); return }
        let uploads = rows.map(\.uploadsWithoutExposure)
        let halfWidth = rows.map(\.nationalRelativeHalfWidth)
        #expect(uploads[1] > 2 * uploads[0], "\(uploads)")
        #expect(halfWidth[1] < halfWidth[0], "\(halfWidth)")
        #expect(rows[1].requests > rows[0].requests)
        #expect(swept.tables.contains { $0.name == "sweep.csv" && $0.table.rows.count == 2 })
    }
}
