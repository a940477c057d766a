@testable import Detection
import EventEngine
import GAEN
import GSL
@testable import HealthBackend
@testable import Simulation
import Testing

/// The whole GAEN chain in one run: contacts → positive tests → uploads → packages →
/// downloads → detection → notifications scored against ground truth.
@Suite struct CompleteRunTests {
    static func run(_ flavor: BackendFlavor, days: Int = 8, threads: Int = 1) throws -> (Simulation, SimulationResults) {
        var config = PipelineRunTests.config(flavor, people: 800, days: days, casesPerDay: 25, threads: threads, national: 20)
        config.retainsGroundTruth = true
        let sim = try Simulation(config: config)
        return (sim, try sim.run())
    }

    @Test(arguments: [BackendFlavor.cwa, .immuni])
    func publishedKeysReachPhonesAndNotifyTheirContacts(flavor: BackendFlavor) throws {
        let (sim, results) = try Self.run(flavor)
        let detection = results.summary.detection, distribution = results.summary.distribution
        #expect(distribution.packagesPublished == sim.publishedPackages.count)
        #expect(distribution.packageRequests > 0)
        let notified = detection.notified, tp = detection.truePositives
        #expect(notified > 0 && tp > 0 && tp <= notified)
        #expect(detection.falsePositives == notified - tp)
        #expect(sim.detection.notifications.count == notified)

        // Every notification names uploaders who are this run's positive cases, and comes
        // after the package holding one of their keys was published.
        let cases = Set(sim.positiveCases.map(\.person))
        var firstPublished: [Int32: SimTime] = [:]
        for p in sim.publishedPackages { for k in p.keys where k.uploader >= 0 { firstPublished[k.uploader] = min(firstPublished[k.uploader] ?? .max, p.publishedAt) } }
        for (_, n) in sim.detection.notifications {
            #expect(!n.uploaders.isEmpty && n.uploaders.allSatisfy { cases.contains($0) })
            #expect(n.uploaders.contains { firstPublished[$0].map { $0 <= n.at } ?? false })
        }
        #expect(results.daily.columns.suffix(2) == ["package_downloads", "phones_notified"])
        let names = Set(results.tables.map(\.name))
        #expect(names.isSuperset(of: ["distribution_hourly.csv", "notifications_daily.csv", "thresholds.csv", "packages.csv"]))
    }

    @Test func completeRunIsIdenticalWhateverTheThreads() throws {
        let (_, a) = try Self.run(.cwa, days: 5, threads: 1)
        let (_, b) = try Self.run(.cwa, days: 5, threads: 3)
        #expect(a == b)
        #expect(a.summary.detection.matchedEncounters > 0)
    }

    /// Full ground truth is kept only on request; the run's results do not depend on it.
    @Test func retainingGroundTruthChangesNoResult() throws {
        var config = PipelineRunTests.config(.cwa, people: 800, days: 3, casesPerDay: 25, national: 20)
        let lean = try Simulation(config: config)
        let a = try lean.run()
        config.retainsGroundTruth = true
        let full = try Simulation(config: config)
        let b = try full.run()
        #expect(lean.groundTruth.isEmpty && full.groundTruth.count == 3)
        #expect(a == b)
    }

    /// Accuracy is scored against every day's close contacts that involve an app user, not only
    /// the last 21 days of full ground truth a simulation can keep.
    @Test func closeContactHistoryCoversTheWholeRun() throws {
        let (sim, _) = try Self.run(.cwa, days: 3)
        #expect(sim.closeContactHistory.map(\.dayIndex) == [0, 1, 2])
        let hasApp = Set(sim.appPhoneOwners)
        for (full, close) in zip(sim.groundTruth, sim.closeContactHistory) {
            let involvingApp = full.pairs.indices.filter { i in
                full.secondsWithin[i] >= full.closeContactSeconds
                    && (hasApp.contains(Int32(truncatingIfNeeded: full.pairs[i] >> 32)) || hasApp.contains(Int32(truncatingIfNeeded: full.pairs[i] & 0xffff_ffff)))
            }
            #expect(close.pairs == involvingApp.map { full.pairs[$0] } && close.closeContacts == close.pairs.count)
            #expect(close.pairs.count < full.closeContacts)
            for (i, pair) in close.pairs.enumerated() {
                let a = Int32(truncatingIfNeeded: pair >> 32), b = Int32(truncatingIfNeeded: pair & 0xffff_ffff)
                #expect(full.isCloseContact(a, b) && close.secondsWithin[i] >= close.closeContactSeconds)
            }
        }
    }
}
