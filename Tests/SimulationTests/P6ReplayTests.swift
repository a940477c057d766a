import EventEngine
@testable import P6Phones
@testable import Simulation
import Testing

/// Scaled replay (`p6.attacks.replay`) and revocation by users' reports (`p6.revocation.report_*`).
@Suite struct P6ReplayTests {
    static func config(attacks: Int = 2, reports: Bool = true, threads: Int = 1) -> SimulationConfig {
        var c = P6RunTests.config(p6: true, iosShare: 0.5, threads: threads)
        c.p6.attacks.replayAttacks = attacks
        c.p6.attacks.replayRelays = 40
        if reports {
            c.p6.reportShare = 0.5
            c.p6.reportDelayMeanSeconds = 3_600
            c.p6.reportThreshold = 4
        }
        return c
    }

    nonisolated(unsafe) static let attacked = P6RunTests.run(config())

    /// Every phone that fully matched a replay disclosure by Tx met the attacker or one of the
    /// attack's relay hosts on the matched day; some of them were misled by the replay alone.
    @Test func replayMatchesWhoeverMetARelayHost() throws {
        let (sim, results) = Self.attacked
        let run = try #require(sim.p6), attackers = try #require(run.attackers)
        let replay = try #require(results.summary.p6?.attacks?.replay)
        #expect(replay.disclosed == 2 && replay.notifiedOnlyByReplay > 0 && replay.phonesMatched >= replay.notifiedOnlyByReplay)
        var phoneOf: [Int32: Int32] = [:]
        for (phone, person) in sim.fleet.owners.enumerated() { phoneOf[person] = Int32(phone) }
        var viaHost = 0
        for m in run.fullMatches where m.byTx {
            guard let k = run.disclosures[Int(m.disclosure)].replayAttack else { continue }
            let attack = attackers.replays[k]
            let near = Set(attack.hosts + [attack.attacker])
            let dayIndex = Int((m.start - sim.config.start) / SimDuration.day)
            let truth = try #require(sim.groundTruth.first { $0.dayIndex == dayIndex })
            var met = Set<Int32>()
            for pair in truth.pairs {
                guard let a = phoneOf[Int32(truncatingIfNeeded: pair >> 32)], let b = phoneOf[Int32(truncatingIfNeeded: pair & 0xffff_ffff)] else { continue }
                if a == m.phone { met.insert(b) }
                if b == m.phone { met.insert(a) }
            }
            #expect(!met.isDisjoint(with: near), "a replay match at a phone that met no relay host")
            if met.isDisjoint(with: [attack.attacker]) { viaHost += 1 }
        }
        #expect(viaHost > 0)
    }

    /// Reports revoke a disclosure once they reach the threshold; the notifications it alone
    /// raised are withdrawn after its revocation list is published.
    @Test func reportsRevokeReplayedDisclosures() throws {
        let (sim, results) = Self.attacked
        let run = try #require(sim.p6)
        let p6 = try #require(results.summary.p6), replay = try #require(p6.attacks?.replay)
        let byReports = try #require(p6.revocation?.byReports)
        #expect(replay.revoked > 0 && replay.withdrawn > 0 && byReports.revoked >= replay.revoked)
        #expect(replay.matchedStillNotified + replay.withdrawn <= replay.phonesMatched)
        #expect(replay.matchedStillNotifiedByRxOnly <= replay.matchedStillNotified)
        for d in run.disclosures where d.revokedByReportsAt != nil {
            let arrived = run.reports[Int32(run.disclosures.firstIndex { $0.disclosure.id == d.disclosure.id }!)]!.filter { $0 <= d.revokedByReportsAt! }
            #expect(arrived.count >= 4 && d.revocationListedAt! > d.revokedByReportsAt!)
        }
        for (phone, at) in run.withdrawn {
            let matched = try #require(run.matchedDisclosures[phone])
            #expect(matched.allSatisfy { run.disclosures[Int($0)].revocationListedAt.map { $0 <= at } ?? false })
        }
    }

    @Test func identicalWhateverTheThreads() {
        #expect(P6RunTests.run(Self.config(threads: 2)).1 == Self.attacked.1)
    }

    /// Without attacks and reports, the replay's other settings draw nothing: the plain run.
    @Test func noReplayNoChange() {
        var c = Self.config(attacks: 0, reports: false)
        c.p6.transmit.iosShare = 0
        c.p6.reportThreshold = 1
        #expect(P6RunTests.run(c).1 == P6RunTests.enabled.1)
    }
}
