import CGSL
import Foundation
@testable import GSL
import Testing

/// taus2 streams draw inline on GSL's state; every draw must be the number GSL's own
/// functions give from the same state, or runs would change with the speed-up.
@Suite struct InlineTausTests {
    /// Two streams in the same state: `inline` draws through ENSim, `gsl` through GSL's C calls.
    func pair(_ name: String) -> (inline: RandomStream, gsl: RandomStream) {
        (RandomStream(seed: 77, stream: name, generator: .taus2), RandomStream(seed: 77, stream: name, generator: .taus2))
    }

    @Test func rawWordsAndUniformsAreGSLs() {
        let (a, b) = pair("words")
        #expect(a.taus != nil)
        let ours = (0..<100_000).map { _ in (a.next32(), a.uniform()) }
        let theirs = (0..<100_000).map { _ in (UInt32(gsl_rng_get(b.rng)), gsl_rng_uniform(b.rng)) }
        #expect(ours.map(\.0) == theirs.map(\.0))
        #expect(ours.map(\.1) == theirs.map(\.1))
    }

    @Test func flatAndIntegersAreGSLs() {
        let (a, b) = pair("flat")
        for n in [1, 2, 3, 7, 100, 256, 1_000_003, Int(UInt32.max)] {
            let ours = (0..<5_000).map { _ in (a.uniformInt(n), a.uniform(200, 270)) }
            let theirs = (0..<5_000).map { _ in (Int(gsl_rng_uniform_int(b.rng, UInt(n))), gsl_ran_flat(b.rng, 200, 270)) }
            #expect(ours.map(\.0) == theirs.map(\.0), "n = \(n)")
            #expect(ours.map(\.1) == theirs.map(\.1), "n = \(n)")
        }
    }

    @Test func lognormalsAreGSLs() {
        let (a, b) = pair("lognormal")
        let ours = (0..<100_000).map { _ in a.lognormal(zeta: 0.4, sigma: 0.6) }
        #expect(ours == (0..<100_000).map { _ in gsl_ran_lognormal(b.rng, 0.4, 0.6) })
    }

    @Test func bernoullisAndExponentialsAreGSLs() {
        let (a, b) = pair("bernoulli")
        for p in [0.001, 0.05, 0.2, 0.5, 0.999] {
            #expect((0..<20_000).map { _ in a.bernoulli(p: p) } == (0..<20_000).map { _ in gsl_ran_bernoulli(b.rng, p) == 1 }, "p = \(p)")
        }
        #expect((0..<100_000).map { _ in a.exponential(mean: 1_800) } == (0..<100_000).map { _ in gsl_ran_exponential(b.rng, 1_800) })
    }

    /// The ziggurat's common case is drawn inline with strips read from GSL: every normal, fast
    /// or not, and the state after it, must be GSL's (a million draws reach every strip's wedge).
    @Test func normalsAreGSLs() throws {
        let strips = try #require(Ziggurat.strips)
        // Strips are picked uniformly; all but the base strip accept most of their points at once.
        #expect(strips[0].fastBelow <= 1 && (1..<128).allSatisfy { strips[$0].width > 0 && strips[$0].fastBelow > 1 << 22 })
        #expect((0..<128).allSatisfy { strips[$0].fastBelow <= 1 << 24 })
        let fastShare = (0..<128).reduce(0.0) { $0 + Double(strips[$1].fastBelow) / Double(1 << 24) } / 128
        #expect(fastShare > 0.95 && fastShare < 1)
        let (a, b) = pair("normal")
        #expect(a.ziggurat != nil)
        for sd in [1.0, 0.6, 3, 0.217, 0] {
            let ours = (0..<200_000).map { _ in a.normal(mean: 0.25, sd: sd) }
            let theirs = (0..<200_000).map { _ in 0.25 + gsl_ran_gaussian_ziggurat(b.rng, sd) }
            #expect(ours == theirs, "sd = \(sd)")
            #expect(a.tausWords == b.tausWords)
        }
        // Mersenne streams keep GSL's own call.
        #expect(RandomStream(seed: 3, stream: "mt").ziggurat == nil)
    }

    @Test func reseedingGivesGSLsSequenceToo() {
        let (a, b) = pair("reseed")
        let family = StreamFamily(seed: 5, stream: "x")
        let ours = (0..<1_000).map { i in a.reseed(family, index: UInt64(i)); return a.uniform() }
        let theirs = (0..<1_000).map { i in b.reseed(family, index: UInt64(i)); return gsl_rng_uniform(b.rng) }
        #expect(ours == theirs)
    }

    @Test func mersenneStreamsStillDrawThroughGSL() {
        let a = RandomStream(seed: 3, stream: "mt"), b = RandomStream(seed: 3, stream: "mt")
        #expect(a.taus == nil)
        #expect((0..<1_000).map { _ in a.uniform() } == (0..<1_000).map { _ in gsl_rng_uniform(b.rng) })
    }
}
