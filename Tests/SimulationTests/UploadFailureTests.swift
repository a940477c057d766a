import EventEngine
@testable import HealthBackend
@testable import Simulation
@testable import SimulationCore
import Testing

/// Upload attempts lost in the network and retried, and CWA's registration token lost before
/// the upload (`backend.upload_failure`, `backend.cwa_token_loss_share`).
@Suite struct UploadFailureTests {
    static let start = CivilCalendar.time(year: 2020, month: 10, day: 1)
    static let phoneOf = (0..<1_200).map { Int32($0 % 2 == 0 ? $0 / 2 : -1) }

    /// Drives one pipeline through `days` days with cases drawn on the first four, then runs every
    /// step left, so that no case is still on its way.
    static func run(_ b: BackendParameters, days: Int = 10) throws -> KeySubmissionPipeline {
        var h = HealthParameters()
        h.casesPerDay = 60
        var queue: [(PipelineStep, Int32, SimTime)] = []
        let pipeline = KeySubmissionPipeline(health: h, backend: b, seed: 11, start: start, days: days, phoneOf: phoneOf, appPhones: 600,
                                             series: nil) { queue.append(($0, $1, $2)) }
        func drain(before t: SimTime) throws {
            while let next = queue.indices.filter({ queue[$0].2 < t }).min(by: { (queue[$0].2, $0) < (queue[$1].2, $1) }) {
                let (step, i, at) = queue.remove(at: next)
                try pipeline.handle(step, case: i, now: at)
            }
        }
        for hour in 0..<(days * 24) {
            let t = start + Int64(hour) * SimDuration.hour
            try drain(before: t)
            if hour % 24 == 0 && hour < 4 * 24 { pipeline.startDay(midnight: t) }
            try pipeline.hour(t)
        }
        try drain(before: .max)
        #expect(queue.isEmpty)
        return pipeline
    }

    static func uploaders(_ p: KeySubmissionPipeline) -> Set<Int32> { Set(p.uploads.map(\.positiveCase.person)) }

    @Test func offByDefaultLeavesNoTrace() throws {
        let p = try Self.run(BackendParameters(), days: 6)
        #expect(p.funnel.lostUploadFailed == nil)
        #expect(p.backendSummary().uploadFailures == nil && p.backendSummary().teleTANAfterTokenLoss == nil)
    }

    /// Failures only delay or lose uploads: every other draw of a case is as without them, so the
    /// uploaders are those of the run without failures less the users who gave up (CWA keeps its TAN).
    @Test func cwaFailuresDelayOrLoseUploadsAndNothingElse() throws {
        var b = BackendParameters()
        b.faultyUploadShare = 0
        let base = try Self.run(b)
        b.uploadFailureShare = 0.5
        b.uploadMaxAttempts = 3
        let failing = try Self.run(b)
        let s = try #require(failing.backendSummary().uploadFailures)
        #expect(s.failed > 0 && s.lost > 0 && s.succeededAfterFailure > 0)
        #expect(failing.funnel.lostUploadFailed == Int(s.lost))
        // Every attempt either failed or reached the server (as an accepted first upload here).
        #expect(s.attempts == s.failed + Int64(failing.funnel.uploaded))
        // A user is lost only after `max_attempts` failures in a row.
        #expect(s.failed >= 3 * s.lost)
        #expect(Self.uploaders(failing).isSubset(of: Self.uploaders(base)))
        #expect(Self.uploaders(base).count - Self.uploaders(failing).count == Int(s.lost))
        // A kept TAN is not fetched again: one TAN request per case's first upload, as without failures.
        #expect(failing.funnel.verified == base.funnel.verified)
        #expect(s.delayHoursMedian.value.map { $0 > 0 } == true)
        let mean = { (hours: [Double]) -> Double in hours.reduce(0, +) / Double(hours.count) }
        let meanFailing: Double = mean(failing.testToPublicationHours), meanBase: Double = mean(base.testToPublicationHours)
        #expect(meanFailing > meanBase)
    }

    /// Immuni's OTP outlives a retry only if the retry is quick: a retry minutes later needs a new
    /// OTP from the operator, which may fail in turn.
    @Test func immuniRetriesNeedANewOTP() throws {
        var b = BackendParameters()
        b.flavor = .immuni
        b.faultyUploadShare = 0
        let base = try Self.run(b)
        b.uploadFailureShare = 0.5
        let failing = try Self.run(b)
        let s = try #require(failing.backendSummary().uploadFailures)
        #expect(s.failed > 0 && s.succeededAfterFailure > 0)
        #expect(Self.uploaders(failing).isSubset(of: Self.uploaders(base)))
        #expect(failing.backendSummary().authFailures["otp_expired"]! > base.backendSummary().authFailures["otp_expired"]!)
        #expect(failing.funnel.lostUploadFailed == Int(s.lost))
        // Each attempt that did not fail reached the server as an upload request.
        let repeats = { (p: KeySubmissionPipeline) in p.backendSummary().authFailures["otp_reused"]! }
        #expect(s.attempts - s.failed == failing.requests[Endpoint.immuniUpload.rawValue] - repeats(failing))
    }

    /// Every user whose app lost its token calls the hotline for a teleTAN and still uploads.
    @Test func cwaTokenLossGoesThroughTheHotline() throws {
        var b = BackendParameters()
        b.faultyUploadShare = 0
        let base = try Self.run(b)
        b.cwaTokenLossShare = 1
        let lost = try Self.run(b)
        let calls = try #require(lost.backendSummary().teleTANAfterTokenLoss)
        #expect(calls == Int64(base.funnel.verified))
        #expect(lost.funnel.teleTAN == base.funnel.teleTAN + Int(calls))
        #expect(lost.requests[Endpoint.cwaTeleTAN.rawValue] == base.requests[Endpoint.cwaTeleTAN.rawValue] + calls)
        #expect(Self.uploaders(lost) == Self.uploaders(base))
        #expect(lost.funnel.resultInApp == base.funnel.resultInApp && lost.funnel.consented == base.funnel.consented)
        b.cwaTokenLossShare = 0.2
        let some = try Self.run(b)
        let n = try #require(some.backendSummary().teleTANAfterTokenLoss)
        #expect(n > 0 && n < calls)
        #expect(Self.uploaders(some) == Self.uploaders(base))
    }
}

/// With the epidemic on, the hotline's teleTANs after a lost token are in load_daily.csv.
@Suite struct TokenLossLoadTests {
    @Test func teleTANsAfterTokenLossReachTheLoadTable() throws {
        var c = EpidemicRunTests.config(days: 10)
        c.backend.cwaTokenLossShare = 0.5
        let results = try Simulation(config: c).run()
        let lost = try #require(results.summary.backend.teleTANAfterTokenLoss)
        let load = try EpidemicLoadTests.table(results, "load_daily.csv")
        let calls = EpidemicLoadTests.integers(load, "hotline_calls_teletan").reduce(0, +)
        #expect(lost > 0)
        #expect(calls == results.summary.health.funnel.teleTAN)
        c.backend.cwaTokenLossShare = 0
        let base = try Simulation(config: c).run()
        let before = EpidemicLoadTests.integers(try EpidemicLoadTests.table(base, "load_daily.csv"), "hotline_calls_teletan").reduce(0, +)
        #expect(calls > before)
    }
}
