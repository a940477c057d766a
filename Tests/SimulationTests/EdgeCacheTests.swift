@testable import Distribution
import EventEngine
@testable import HealthBackend
@testable import Simulation
@testable import SimulationCore
import Testing

/// Edge caches in front of the origin (issue 23): hit ratios, revalidation, determinism.
@Suite struct EdgeCacheTests {
    let start = CivilCalendar.time(year: 2020, month: 10, day: 1)

    /// Synthetic packages (a zip's size varies by a byte with its ECDSA signature: runs compared share them).
    func packages(_ flavor: DistributionFlavor, days: Int = 2) throws -> [PublishedPackage] {
        try SyntheticPackages.make(flavor: flavor, start: start, days: days, casesPerDay: 500, seed: 2)
    }

    func run(clients: Int, edges: Int, indexMaxAge: Int64, packageMaxAge: Int64, days: Int = 2, threads: Int = 1,
             flavor: DistributionFlavor = .cwa, packages: [PublishedPackage]? = nil) throws -> (DistributionModel, [PackageDownload]) {
        var p = DistributionTests.quiet
        p.clients = clients
        p.cdnEdges = edges
        p.cdnIndexMaxAgeSeconds = indexMaxAge
        p.cdnPackageMaxAgeSeconds = packageMaxAge
        let m = DistributionModel(parameters: p, flavor: flavor, seed: 5, start: start,
                                  contactPhoneIsIOS: (0..<clients).map { $0 % 3 == 0 }, threads: threads)
        m.publish(try packages ?? self.packages(flavor, days: days))
        var downloads: [PackageDownload] = []
        for day in 1...days { downloads += m.advance(until: start + Int64(day) * 86_400) }
        return (m, downloads)
    }

    /// One edge that keeps everything for longer than the run: the origin sees each object once.
    @Test func oneEdgeWithLongMaxAgeFetchesEachObjectOnce() throws {
        let (m, downloads) = try run(clients: 2_000, edges: 1, indexMaxAge: 30 * 86_400, packageMaxAge: 30 * 86_400)
        let cdn = try #require(m.results().summary.cdn)
        #expect(cdn.originPackageRequests == Set(downloads.map(\.package)).count)
        // The date index and the hour index of each of the 2 days; both hour indexes are first
        // asked for before their day's first package (404), and nothing is revalidated.
        #expect(cdn.originIndexRequests == 3)
        #expect(cdn.originNotFound404 == 2 && cdn.originNotModified304 == 0)
        #expect(cdn.edgeRequests == m.results().summary.requests)
        #expect(cdn.hitRatio.all.estimate > 0.999)
        #expect(cdn.hitRatio.all.lower <= cdn.hitRatio.all.estimate && cdn.hitRatio.all.estimate <= cdn.hitRatio.all.upper)
    }

    /// max-age 0 and one client (no two requests for one object in the same second): every
    /// request goes to the origin, unchanged objects answered 304.
    @Test func maxAgeZeroRevalidatesEveryRequest() throws {
        for flavor in [DistributionFlavor.cwa, .immuni] {
            let (m, _) = try run(clients: 1, edges: 1, indexMaxAge: 0, packageMaxAge: 0, flavor: flavor)
            let s = m.results().summary
            let cdn = try #require(s.cdn)
            #expect(cdn.originRequests == s.requests && cdn.edgeRequests == s.requests)
            #expect(cdn.originPackageRequests == s.packageRequests)
            #expect(cdn.hitRatio.all.estimate == 0)
            // CWA's date index changes once a day but is asked for every hour: 304 at the origin
            // (Immuni's index changes with every hourly chunk).
            #expect(flavor == .immuni || cdn.originNotModified304 > 0)
            #expect(cdn.originNotModified304 + cdn.originNotFound404 < cdn.originRequests)
        }
    }

    /// A shorter max-age means more origin requests; more edges mean more too (each fills its own cache).
    @Test func originLoadGrowsWithEdgesAndShorterMaxAge() throws {
        let shared = try packages(.cwa)
        func cdn(edges: Int, indexMaxAge: Int64) throws -> CDNSummary {
            try #require(run(clients: 3_000, edges: edges, indexMaxAge: indexMaxAge, packageMaxAge: 86_400, packages: shared).0.results().summary.cdn)
        }
        let base = try cdn(edges: 2, indexMaxAge: 300), shorter = try cdn(edges: 2, indexMaxAge: 60), wider = try cdn(edges: 8, indexMaxAge: 300)
        #expect(shorter.originIndexRequests > base.originIndexRequests)
        #expect(shorter.originPackageRequests == base.originPackageRequests)
        #expect(wider.originRequests > base.originRequests)
        #expect(base.edgeRequests == wider.edgeRequests)
        // Index copies live 5 minutes: at most one origin request per edge, index object and 300 s.
        #expect(base.originIndexRequests <= 2 * 3 * (2 * 86_400 / 300 + 1))
    }

    /// Same outputs for any thread count, and the edge model leaves the client-facing load alone.
    @Test func deterministicAcrossThreadsAndClientLoadUnchanged() throws {
        let shared = try packages(.cwa)
        let one = try run(clients: 4_000, edges: 7, indexMaxAge: 120, packageMaxAge: 3_600, threads: 1, packages: shared).0.results()
        let three = try run(clients: 4_000, edges: 7, indexMaxAge: 120, packageMaxAge: 3_600, threads: 3, packages: shared).0.results()
        #expect(one.summary == three.summary)
        #expect(one.hourly!.rows == three.hourly!.rows)
        let off = try run(clients: 4_000, edges: 0, indexMaxAge: 120, packageMaxAge: 3_600, threads: 2, packages: shared).0.results()
        var withoutCDN = one.summary
        withoutCDN.cdn = nil
        #expect(off.summary.cdn == nil && withoutCDN == off.summary)
        #expect(off.hourly!.columns == Array(one.hourly!.columns.prefix(off.hourly!.columns.count)))
        #expect(one.hourly!.columns.contains("origin_bytes") && !off.hourly!.columns.contains("origin_bytes"))
    }
}
