import EventEngine
@testable import P6Phones
@testable import Simulation
import Testing

/// Excessively powered transmitters (`p6.attacks.excess_power_share`): a share of phones whose
/// P6 adverts are louder than the app's own power.
@Suite struct P6ExcessPowerTests {
    @Test func loudPhonesAreDrawnOncePerPhone() {
        var attacks = P6Attacks()
        attacks.excessPowerShare = 0.3
        attacks.excessPowerDB = 20
        let a = P6Attackers(attacks, seed: 4, phones: 3_000), b = P6Attackers(attacks, seed: 4, phones: 1_000)
        let loud = a.excessPowerDB.filter { $0 > 0 }
        #expect(loud.allSatisfy { $0 == 20 } && loud.count > 800 && loud.count < 1_000)
        // A phone's draw is its own: the same whatever the number of phones.
        #expect(Array(a.excessPowerDB.prefix(1_000)) == b.excessPowerDB)
        #expect(P6Attackers(P6Attacks(), seed: 4, phones: 3_000).excessPowerDB.allSatisfy { $0 == 0 })
    }

    static func config(share: Double, threads: Int = 1) -> SimulationConfig {
        var c = P6RunTests.config(p6: true, threads: threads)
        c.p6.txPowerReductionDB = 30
        c.p6.attacks.excessPowerShare = share
        c.p6.attacks.excessPowerDB = 30
        return c
    }

    /// With the app's power low, loud phones are heard in more of their contacts; the summary
    /// counts them and what their disclosures notified, the same for 1 and 2 threads.
    @Test func loudPhonesAreHeardMoreTheSameForAnyThreadCount() throws {
        let quiet = try #require(P6RunTests.run(Self.config(share: 0)).1.summary.p6)
        let (sim, results) = P6RunTests.run(Self.config(share: 0.5))
        let loud = try #require(results.summary.p6)
        #expect(quiet.attacks == nil)
        let e = try #require(loud.attacks?.excessPower)
        #expect(e.phones == sim.p6?.attackers?.excessPowerDB.filter { $0 > 0 }.count && e.phones > 0 && e.db == 30)
        #expect(e.notified <= loud.notified && e.falsePositives <= e.notified)
        #expect(loud.rxRecordsPerPhoneDay > quiet.rxRecordsPerPhoneDay)
        #expect(try #require(P6RunTests.run(Self.config(share: 0.5, threads: 2)).1.summary.p6) == loud)
    }
}
