@testable import Epidemic
import EventEngine
import GSL
@testable import HealthBackend
@testable import Simulation
import Testing
@testable import World

/// The epidemic stage: transmission over the run's contacts, its positives as the index cases,
/// quarantine removing exactly the non-household contacts, and reproducibility.
@Suite struct EpidemicRunTests {
    static func config(days: Int = 10, threads: Int = 1, enabled: Bool = true) -> SimulationConfig {
        var c = PipelineRunTests.config(.cwa, people: 800, days: days, casesPerDay: 5, threads: threads, national: 20)
        c.epidemic.enabled = enabled
        c.epidemic.initialInfections = 40
        c.epidemic.hazardPerMinute = 0.02
        c.epidemic.symptomaticTestProbability = 1
        c.epidemic.onsetToTestDays = 0.5
        c.epidemic.notifiedTestProbability = 1
        c.epidemic.quarantineCompliance = 1
        return c
    }

    @Test func infectionsSpreadAndPositivesBecomeTheIndexCases() throws {
        let sim = try Simulation(config: Self.config(days: 12))
        let results = try sim.run()
        let e = try #require(results.summary.epidemic)
        // `imports` counts the 40 seeded at the start too; every other infection came through a contact layer.
        #expect(e.infections > e.imports, "transmission over the contacts adds infections to the seeded ones")
        #expect(e.infectionsByLayer.entries.reduce(0) { $0 + $1.value } == e.infections - e.imports)
        let state = try #require(sim.epidemic).state
        // Every index case is an infected person whose test fell in their infectious window.
        #expect(!sim.positiveCases.isEmpty)
        for c in sim.positiveCases {
            #expect(state.infectiousFrom[Int(c.person)] <= c.testedAt && c.testedAt < state.recoveredAt[Int(c.person)])
        }
        #expect(results.summary.health.indexCases <= e.positivesForSymptoms + e.positivesAfterNotification)
        #expect(results.daily.columns.suffix(EpidemicStage.dailyColumns.count) == EpidemicStage.dailyColumns[...])
    }

    @Test func epidemicIsIdenticalWhateverTheThreads() throws {
        let a = try Simulation(config: Self.config(days: 8, threads: 1)).run()
        let b = try Simulation(config: Self.config(days: 8, threads: 3)).run()
        #expect(a == b)
        #expect((a.summary.epidemic?.infections ?? 0) > 40)
    }

    /// With adoption 0 nobody is notified: the counterfactual is the run itself. With everyone
    /// using the app and acting on every notification, the app averts infections.
    @Test func counterfactualAvertsNothingWithoutTheAppAndSomethingWithIt() throws {
        var none = Self.config(days: 10)
        none.epidemic.counterfactual = true
        none.epidemic.hazardPerMinute = 0.006
        none.population.appAdoption = 0
        let e0 = try #require(try Simulation(config: none).run().summary.epidemic)
        #expect(e0.notified == 0 && e0.infectionsAverted == 0 && e0.counterfactualInfections == e0.infections)

        var all = none
        all.population.appAdoption = 1
        all.health.uploadConsentShare = 1
        let e1 = try #require(try Simulation(config: all).run().summary.epidemic)
        #expect(e1.notified > 0)
        #expect((e1.infectionsAverted ?? 0) > 0)
    }

    /// The secondary attack rate among notified contacts counts a notified person when their
    /// infector uploaded a key that notified them; such a person was infected at some point.
    @Test func notifiedInfectedByTheNotifyingCase() throws {
        var c = Self.config(days: 12)
        c.population.appAdoption = 1
        c.health.uploadConsentShare = 1
        let sim = try Simulation(config: c)
        let e = try #require(try sim.run().summary.epidemic)
        let rate = try #require(e.notifiedInfectedByNotifier)
        #expect(rate.trials == e.notified && e.notified > 0)
        #expect(rate.successes > 0, "with everyone on the app, some notified contacts caught it from the case that notified them")
        #expect(rate.successes <= e.notifiedAlreadyInfected.successes + e.notifiedInfectedLater.successes)
        let infector = try #require(sim.epidemic).state.infector
        let owners = sim.world.population.owners
        let expected = sim.detection.notifications.filter { phone, n in
            n.uploaders.contains(infector[Int(owners[Int(phone)])])
        }.count
        #expect(rate.successes == expected)
    }

    /// Without the block the run is the case-series run, whatever the epidemic's other keys say.
    @Test func caseSeriesModeIgnoresTheEpidemicParameters() throws {
        var other = Self.config(days: 4, enabled: false)
        other.epidemic.hazardPerMinute = 1
        other.epidemic.initialInfections = 500
        let a = try Simulation(config: Self.config(days: 4, enabled: false)).run()
        let b = try Simulation(config: other).run()
        #expect(a == b)
        #expect(a.summary.epidemic == nil && !a.daily.columns.contains { $0.hasPrefix("epi_") })
        #expect(a.summary.health.indexCases > 0)
    }

    /// A gate confining some people removes exactly the non-household contacts touching them,
    /// and leaves every other contact as it was.
    @Test func quarantineRemovesExactlyTheNonHouseholdContacts() {
        let population = Population(PopulationParameters(size: 3_000, appAdoption: 0.5), seed: 5)
        let network = ContactNetwork(population: population, parameters: ContactParameters(), seed: 5)
        let confined = Set((0..<3_000).filter { $0 % 7 == 0 }.map(Int32.init))
        let midnight = CivilCalendar.time(year: 2020, month: 10, day: 1)
        func contacts(gate: (any ContactGate)?) -> [Seen] {
            let observer = Collect()
            _ = ContactPhase.run(network: network, population: population, dayIndex: 0, midnight: midnight, threads: 2, seed: 5,
                                 everyContact: [observer], gate: gate)
            return observer.all
        }
        let all = contacts(gate: nil)
        let kept = contacts(gate: Confine(people: confined))
        let expected = all.filter { $0.layer == .household || !(confined.contains($0.a) || confined.contains($0.b)) }
        #expect(kept == expected)
        #expect(kept.count < all.count)
        #expect(all.contains { $0.layer == .household && confined.contains($0.a) })
    }

    struct Seen: Equatable {
        var key: UInt64, a: Int32, b: Int32, layer: ContactLayer
    }

    final class Confine: ContactGate {
        let people: Set<Int32>
        init(people: Set<Int32>) { self.people = people }
        func removes(_ c: ContactView) -> Bool { c.layer != .household && (people.contains(c.a) || people.contains(c.b)) }
    }

    final class Collect: ContactObserver, @unchecked Sendable {
        final class Shard: ContactRecorder {
            var seen: [Seen] = []
            func record(_ c: ContactView, key: UInt64) { seen.append(Seen(key: key, a: c.a, b: c.b, layer: c.layer)) }
        }
        var shards: [Shard] = []
        var all: [Seen] = []
        func beginShards(_ count: Int) { shards = (0..<count).map { _ in Shard() } }
        func recorder(shard index: Int) -> any ContactRecorder { shards[index] }
        func endShards() { all = shards.flatMap(\.seen) }
    }
}
