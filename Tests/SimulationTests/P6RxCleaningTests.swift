import EventEngine
@testable import P6Phones
@testable import Simulation
import Testing

/// Revocation cleaning Rx matches (`p6.revocation.clean_rx_matches`): phones drop their receptions
/// of revoked disclosures' codes, and the Rx co-location matches those receptions made.
@Suite struct P6RxCleaningTests {
    static func config(threads: Int = 1) -> SimulationConfig {
        var c = P6ReplayTests.config(threads: threads)
        c.p6.cleansRxMatches = true
        return c
    }

    nonisolated(unsafe) static let cleaned = P6RunTests.run(config())

    /// Cleaning only adds withdrawals: every other figure of the run is the same, the phones
    /// withdrawn without it are withdrawn at the same times, and more are withdrawn.
    @Test func cleaningOnlyAddsWithdrawals() throws {
        let (plainSim, plain) = P6ReplayTests.attacked
        let (sim, results) = Self.cleaned
        let a = try #require(plainSim.p6), b = try #require(sim.p6)
        #expect(a.notifications.mapValues { $0.at } == b.notifications.mapValues { $0.at } && a.fullMatches == b.fullMatches)
        for (phone, at) in a.withdrawn { #expect(b.withdrawn[phone] == at) }
        let revocation = try #require(results.summary.p6?.revocation)
        #expect(plain.summary.p6?.revocation?.rxMatchesCleaned == nil)
        #expect((revocation.rxMatchesCleaned ?? 0) > 0 && (revocation.withdrawnByCleaning ?? 0) > 0)
        #expect(b.withdrawn.count == a.withdrawn.count + (revocation.withdrawnByCleaning ?? 0))
        let replayA = try #require(plain.summary.p6?.attacks?.replay), replayB = try #require(results.summary.p6?.attacks?.replay)
        #expect(replayB.matchedStillNotifiedByRxOnly < replayA.matchedStillNotifiedByRxOnly)
    }

    /// A cleaned match is an Rx match of a disclosure that is not revoked, whose disclosed Rx trace
    /// holds codes a revoked disclosure sent in the same slice: the case heard the relayed codes.
    @Test func cleanedMatchesCameThroughRevokedCodes() throws {
        let run = try #require(Self.cleaned.0.p6)
        let revoked = Set(run.disclosures.filter { $0.revocationListedAt != nil }.flatMap {
            P6MatchIndex.txCodes(of: $0, sliceSeconds: Int64(run.parameters.sliceSeconds))
        })
        #expect(!run.rxMatchesCleaned.isEmpty)
        for pair in run.rxMatchesCleaned {
            let phone = Int32(truncatingIfNeeded: pair >> 32), d = Int(Int32(truncatingIfNeeded: pair & 0xffff_ffff))
            let disclosure = run.disclosures[d]
            #expect(disclosure.revocationListedAt == nil && disclosure.phone != phone)
            #expect(!run.fullMatches.contains { $0.phone == phone && $0.disclosure == Int32(d) && $0.byTx })
            let slice = Int64(run.parameters.sliceSeconds)
            #expect(disclosure.disclosure.rxTrace.contains { r in
                revoked.contains(P6MatchIndex.RxKey(slot: P6MatchIndex.floorDiv(r.time, slice), uuid: UInt8(r.uuidIndex), code: r.code))
            })
        }
    }

    @Test func identicalWhateverTheThreads() {
        #expect(P6RunTests.run(Self.config(threads: 2)).1 == Self.cleaned.1)
    }
}
