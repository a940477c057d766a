import EventEngine
@testable import P6Phones
@testable import Simulation
import Testing

/// Fake disclosures (`p6.attacks.fake_disclosure_share`) and their mitigations: the minimum app
/// age of the genuine app and attestation of modified clients.
@Suite struct P6FakeDisclosureTests {
    static func config(share: Double = 0.3, mitigated: Bool = true, threads: Int = 1) -> SimulationConfig {
        var c = P6RunTests.config(p6: true, iosShare: 0.5, threads: threads)
        c.p6.attacks.fakeDisclosureShare = share
        c.p6.attacks.fakeDelayMeanSeconds = 30 * 3_600
        if !mitigated {
            c.p6.attacks.minimumAppAgeSeconds = 0
            c.p6.attacks.attestationRejectShare = 0
        }
        return c
    }

    nonisolated(unsafe) static let mitigated = P6RunTests.run(config())

    /// Published fakes passed the mitigations; rejected ones made no disclosure; the published
    /// ones notify phones that matched nothing else.
    @Test func mitigationsDecideWhichFakesArePublished() throws {
        let (sim, results) = Self.mitigated
        let run = try #require(sim.p6), attackers = try #require(run.attackers)
        let fakes = try #require(results.summary.p6?.attacks?.fakeDisclosures)
        #expect(fakes.attempts == run.fakeOutcomes.count && fakes.attempts > 0 && fakes.attackers == attackers.installedAt.count)
        #expect(fakes.rejectedByAttestation == fakes.byModifiedClients && fakes.rejectedByAppAge > 0)
        #expect(fakes.published == fakes.attempts - fakes.rejectedByAppAge - fakes.rejectedByAttestation && fakes.published > 0)
        let minimumAge = Int64(sim.config.p6.attacks.minimumAppAgeSeconds), epochAge = Int64(sim.config.p6.minimumEpochAgeSeconds)
        let published = run.disclosures.filter(\.fake)
        #expect(published.count == fakes.published)
        for d in published {
            let attempt = try #require(attackers.fakes.first { $0.phone == d.phone && $0.at == d.at })
            #expect(!attempt.modifiedClient && d.at - attempt.installedAt >= minimumAge)
            // The genuine app discloses only epochs first used at least the epoch age before, after the install.
            for e in d.disclosure.epochs { #expect(e.end > attempt.installedAt && max(e.start, attempt.installedAt) + epochAge <= d.at) }
        }
        #expect(fakes.notifiedOnlyByFakes > 0 && fakes.phonesMatched >= fakes.notifiedOnlyByFakes)
        // An attacker neither hears nor is heard before its install.
        for (phone, at) in attackers.installedAt {
            for day in run.rx.days { #expect(day.trace(Int(phone)).allSatisfy { $0.time >= at }) }
        }
    }

    /// Without mitigations every attempt is published (the same attempts: the mitigations draw
    /// nothing), modified clients disclose even their youngest epochs, and more phones are misled.
    @Test func withoutMitigationsEveryFakeIsPublished() throws {
        let (sim, results) = P6RunTests.run(Self.config(mitigated: false))
        let with = try #require(Self.mitigated.1.summary.p6?.attacks?.fakeDisclosures)
        let without = try #require(results.summary.p6?.attacks?.fakeDisclosures)
        #expect(without.attempts == with.attempts && without.published == without.attempts)
        #expect(without.rejectedByAppAge == 0 && without.rejectedByAttestation == 0)
        // What the app age refused would have been empty: the epoch age leaves nothing of a younger install.
        #expect(without.publishedEmpty == with.rejectedByAppAge)
        #expect(without.notifiedOnlyByFakes > with.notifiedOnlyByFakes)
        let run = try #require(sim.p6)
        #expect(run.disclosures.contains { d in d.fake && d.disclosure.epochs.contains { d.at - $0.start < 86_400 } })
    }

    @Test func identicalWhateverTheThreads() {
        #expect(P6RunTests.run(Self.config(threads: 2)).1 == Self.mitigated.1)
    }

    /// With no fake disclosers the attack's other settings draw nothing: the run is the plain one.
    @Test func noAttackersNoChange() {
        var c = Self.config(share: 0, mitigated: false)
        c.p6.attacks.modifiedClientShare = 1
        c.p6.transmit.iosShare = 0
        #expect(P6RunTests.run(c).1 == P6RunTests.enabled.1)
    }
}
