@testable import HealthBackend
@testable import Simulation
@testable import SimulationCore
import Testing

/// Cross-border keys (EFGS) in the national packages (issue 23).
@Suite struct FederationKeysTests {
    static func config(_ flavor: BackendFlavor, efgs: Double) -> SimulationConfig {
        var c = PipelineRunTests.config(flavor, people: 600, days: 3, casesPerDay: 10, national: 0)
        c.backend.efgsKeysPerDay = efgs
        return c
    }

    /// Every federation key is published (or still pending at the end) beside the country's own, as
    /// a key of no phone (uploader −1), and adds its share of package bytes; none match a phone.
    @Test(arguments: [BackendFlavor.cwa, .immuni])
    func federationKeysReachThePackagesAndAddTheirBytes(flavor: BackendFlavor) throws {
        let without = try Simulation(config: Self.config(flavor, efgs: 0))
        let a = try without.run()
        let with = try Simulation(config: Self.config(flavor, efgs: 4_800))
        let b = try with.run()
        #expect(a.summary.backend.keys.efgs == nil)
        let efgs = try #require(b.summary.backend.keys.efgs)
        // Poisson(200) an hour for 3 days: 14,400 expected.
        #expect(abs(Double(efgs) - 14_400) < 5 * 120)
        // Every federation key is published, still waiting or expired unpublished: exactly efgs more keys.
        func keysIn(_ k: BackendSummary.Keys) -> Int64 { k.published + Int64(k.pendingAtEnd + k.expiredUnpublished) }
        #expect(keysIn(b.summary.backend.keys) - keysIn(a.summary.backend.keys) == efgs)
        func keys(_ sim: Simulation) -> [PublishedKey] { sim.publishedPackages.filter { $0.kind != .daily }.flatMap(\.keys) }
        // No national uploads, no padding: every key of no phone in a package is a federation key.
        let foreign = keys(with).filter { $0.uploader == -1 }.count
        #expect(keys(without).allSatisfy { $0.uploader != -1 })
        #expect(foreign > 0 && foreign <= Int(efgs))
        // Bytes: an exported key costs 10–40 B in the zip (docs/model/distribution.md: ~17 B).
        let extraBytes = b.summary.backend.packages.bytes - a.summary.backend.packages.bytes
        let extraKeys = Int64(keys(with).count - keys(without).count)
        let perKey = Double(extraBytes) / Double(extraKeys)
        #expect(extraKeys > 0 && perKey > 10 && perKey < 40, "\(perKey) B per key")
        let da = try #require(a.summary.detection), db = try #require(b.summary.detection)
        #expect(db.identifiersDerived > da.identifiersDerived)
        if flavor == .immuni {
            // Foreign keys match no phone: the same exposures are found.
            #expect(da.matchedEncounters == db.matchedEncounters && da.notified == db.notified)
        } else {
            // CWA holds keys back until an hourly package has 140: foreign keys fill packages, so
            // the town's own keys go out sooner and more encounters are matched, never fewer.
            #expect(db.matchedEncounters >= da.matchedEncounters)
        }
    }
}
