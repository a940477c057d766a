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
