@testable import Detection
import EventEngine
import GAEN
import GSL
@testable import HealthBackend
@testable import Simulation
import Testing
@testable import World

@Suite struct PipelineRunTests {
    static func config(_ flavor: BackendFlavor, people: Int = 800, days: Int = 3, casesPerDay: Double = 40, threads: Int = 1,
                       national: Double = 100) -> SimulationConfig {
        var h = HealthParameters()
        h.casesPerDay = casesPerDay
        h.nationalUploadsPerDay = national
        var b = BackendParameters()
        b.flavor = flavor
        b.dummyUploadsPerPhoneDay = 1
        b.faultyUploadShare = 0.05
        b.credentialReuseShare = 0.2
        return SimulationConfig(name: "pipeline", seed: 11, start: CivilCalendar.time(year: 2020, month: 10, day: 1), days: days,
                                population: PopulationParameters(size: people, appAdoption: 0.6), health: h, backend: b, threads: threads)
    }

    @Test(arguments: [BackendFlavor.cwa, .immuni])
    func funnelCountsAndPackagesAreConsistent(flavor: BackendFlavor) throws {
        let sim = try Simulation(config: Self.config(flavor))
        let results = try sim.run()
        let health = results.summary.health, backend = results.summary.backend
        func count(_ v: Int64?, _ name: String) -> Int64 { if let v { return v }; Issue.record("missing \(name)"); return -1 }
        let funnel = health.funnel
        let delivered = health.resultsDelivered
        #expect(delivered == sim.positiveCases.count && delivered > 60)
        let app = funnel.appUsers, inApp = funnel.resultInApp, consented = funnel.consented
        let verified = funnel.verified, uploaded = funnel.uploaded, published = funnel.published
        #expect(app <= delivered && inApp <= app && consented <= inApp && verified <= consented && uploaded <= verified && published <= uploaded)
        #expect(uploaded > 0 && published > 0)
        #expect(funnel.lostNoConsent + consented == inApp)

        // Packages: every key comes from an index case of the population or the rest of the country (−1);
        // dummy uploads never reach a package.
        // run() hands each day's packages to distribution: nothing is left to take.
        let packages = sim.publishedPackages
        #expect(sim.takeNewPackages().isEmpty)
        let casePeople = Set(sim.positiveCases.map(\.person))
        for p in packages { for k in p.keys { #expect(k.uploader == -1 || casePeople.contains(k.uploader)) } }
        #expect(packages.map(\.sequence) == Array(0..<packages.count))
        let dummy = backend.uploads.dummy
        #expect(dummy > 0)
        let publishedKeys = packages.filter { $0.kind != .daily }.reduce(0) { $0 + $1.keys.count }
        #expect(Int64(publishedKeys) == backend.keys.published)
        if flavor == .cwa {
            #expect(packages.filter { $0.kind == .hourly }.count == 3 * 24 - 1)
            #expect(packages.filter { $0.kind == .daily }.count == 2)
            #expect(count(backend.authFailures[AuthFailure.tanAlreadyUsed.rawValue], "tan_already_used") > 0)
            #expect(count(backend.requestsByEndpoint[Endpoint.cwaTestResult.path], "testresult") > 0)
        } else {
            #expect(packages.allSatisfy { $0.kind == .batch && $0.keys.count <= 10_000 })
            #expect(backend.keys.droppedCurrentDay > 0)
            #expect(count(backend.authFailures[AuthFailure.otpReused.rawValue], "otp_reused") > 0)
            #expect(count(backend.requestsByEndpoint[Endpoint.immuniAuthoriseOTP.path], "otp") >= verified)
        }
        let reasons = backend.uploadRejections.entries
        #expect(reasons.map(\.name) == RejectionReason.allCases.map(\.rawValue))
        #expect(reasons.reduce(0) { $0 + $1.value } == backend.uploads.rejected)
        #expect(results.hourly!.columns.contains("uploads_dummy") && results.daily.columns.contains("keys_published"))
        #expect(results.files.contains { $0.path == "backend/export-signing-public-key.pem" })
    }

    @Test func sameSeedGivesIdenticalResultsWhateverTheThreads() throws {
        let a = try Simulation(config: Self.config(.cwa, days: 2, threads: 1)).run()
        let b = try Simulation(config: Self.config(.cwa, days: 2, threads: 2)).run()
        #expect(a == b)
    }

    /// The share of app users with a result who agree to upload matches `upload_consent_share`.
    @Test func consentShareMatchesTheParameter() throws {
        let sim = try Simulation(config: Self.config(.immuni, people: 3000, days: 2, casesPerDay: 400, national: 0))
        _ = try sim.run()
        let funnel = sim.pipeline.funnel
        let ci = Proportion.wilson(successes: funnel.consented, trials: funnel.resultInApp, confidence: 0.999)
        #expect(funnel.resultInApp > 200 && ci.contains(HealthParameters.default.uploadConsentShare))
        #expect(HealthParameters.default.uploadConsentShare == 0.6)
    }
}
