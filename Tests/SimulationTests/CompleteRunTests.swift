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
        let sim = try Simulation(config: PipelineRunTests.config(flavor, people: 800, days: days, casesPerDay: 25, threads: threads, national: 20))
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

    /// Accuracy is scored against every day's close contacts, not only the last 21 days of
    /// full ground truth the simulation keeps.
    @Test func closeContactHistoryCoversTheWholeRun() throws {
        let (sim, _) = try Self.run(.cwa, days: 3)
        #expect(sim.closeContactHistory.map(\.dayIndex) == [0, 1, 2])
        for (full, close) in zip(sim.groundTruth, sim.closeContactHistory) {
            #expect(close.pairs.count == full.closeContacts && close.closeContacts == close.pairs.count)
            for (i, pair) in close.pairs.enumerated() {
                let a = Int32(truncatingIfNeeded: pair >> 32), b = Int32(truncatingIfNeeded: pair & 0xffff_ffff)
                #expect(full.isCloseContact(a, b) && close.secondsWithin[i] >= close.closeContactSeconds)
            }
        }
    }
}
