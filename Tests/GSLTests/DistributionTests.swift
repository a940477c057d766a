import CGSL
import Foundation
@testable import GSL

/// Moments of each sampler against their known values, within a 99.9% confidence interval.
@Suite struct DistributionTests {
    func draws(_ n: Int, _ name: String, _ f: (RandomStream) -> Double) -> [Double] {
        let r = RandomStream(seed: 2020, stream: name)
        return (0..<n).map { _ in f(r) }
    }

    func expectMean(_ xs: [Double], _ expected: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let ci = Statistics.meanConfidenceInterval(xs, confidence: 0.999)
        #expect(ci.contains(expected), "mean CI \(ci) should contain \(expected)", sourceLocation: sourceLocation)
    }

    @Test func poissonMeanOfAMillionDraws() {
        let xs = draws(1_000_000, "poisson") { Double($0.poisson(mean: 4)) }
        let ci = Statistics.meanConfidenceInterval(xs, confidence: 0.95)
        #expect(ci.contains(4), "\(ci)")
        #expect(ci.upper - ci.lower < 0.01)
        #expect(abs(Statistics.variance(xs) - 4) < 0.05)
    }

    /// GSL's Poisson sampler never returns from a mean of ~1e10 (a cases CSV times a large
    /// `cases_csv_scale` hung the run); such means draw from N(mean, mean). Up to 1e9 the draws
    /// stay GSL's own.
    @Test func hugePoissonMeansReturnAndKeepTheirMeanAndSpread() {
        let xs = draws(20_000, "poisson-huge") { Double($0.poisson(mean: 1e12)) }
        expectMean(xs, 1e12)
        #expect(abs(Statistics.standardDeviation(xs) / 1e6 - 1) < 0.03)
        let r = RandomStream(seed: 1, stream: "poisson-inf")
        #expect(r.poisson(mean: .infinity) == 9_000_000_000_000_000_000)
        #expect(r.poisson(mean: 1e300) == 9_000_000_000_000_000_000)
        let (a, b) = (RandomStream(seed: 2, stream: "p"), RandomStream(seed: 2, stream: "p"))
        #expect((0..<100).map { _ in a.poisson(mean: 9e8) } == (0..<100).map { _ in Int(gsl_ran_poisson(b.rng, 9e8)) })
    }

    @Test func continuousMoments() {
        expectMean(draws(200_000, "exp") { $0.exponential(mean: 2.5) }, 2.5)
        let normal = draws(200_000, "normal") { $0.normal(mean: -3, sd: 2) }
        expectMean(normal, -3)
        #expect(abs(Statistics.standardDeviation(normal) - 2) < 0.02)
        expectMean(draws(200_000, "lognormal") { $0.lognormal(zeta: 0.5, sigma: 0.4) }, Foundation_exp(0.5 + 0.08))
        expectMean(draws(200_000, "gamma") { $0.gamma(shape: 2, scale: 3) }, 6)
        // Weibull(scale 2, shape 1) is Exp(mean 2).
        expectMean(draws(200_000, "weibull") { $0.weibull(scale: 2, shape: 1) }, 2)
        let flat = draws(100_000, "flat") { $0.uniform(10, 20) }
        #expect(flat.allSatisfy { $0 >= 10 && $0 < 20 })
        expectMean(flat, 15)
    }

    @Test func discreteMoments() {
        expectMean(draws(200_000, "binomial") { Double($0.binomial(p: 0.3, n: 20)) }, 6)
        let nb = draws(300_000, "negbin") { Double($0.negativeBinomial(mean: 5, dispersion: 0.8)) }
        expectMean(nb, 5)
        // Overdispersion: variance = mean + mean²/k = 5 + 31.25.
        #expect(abs(Statistics.variance(nb) - 36.25) < 1.5)
        let ints = draws(100_000, "int") { Double($0.uniformInt(6)) }
        #expect(Set(ints) == Set([0, 1, 2, 3, 4, 5].map(Double.init)))
    }

    @Test func bernoulliShareWithinClopperPearson() {
        let r = RandomStream(seed: 1, stream: "bern")
        let n = 100_000
        let hits = (0..<n).filter { _ in r.bernoulli(p: 0.37) }.count
        #expect(Proportion.clopperPearson(successes: hits, trials: n, confidence: 0.999).contains(0.37))
    }

    @Test func categoricalFrequencies() throws {
        let d = try DiscreteDistribution(weights: [1, 2, 7])
        #expect(abs(d.probability(2) - 0.7) < 1e-12)
        let r = RandomStream(seed: 8, stream: "cat")
        var counts = [0, 0, 0]
        for _ in 0..<100_000 { counts[d.sample(r)] += 1 }
        for (i, p) in [0.1, 0.2, 0.7].enumerated() {
            #expect(Proportion.clopperPearson(successes: counts[i], trials: 100_000, confidence: 0.999).contains(p))
        }
        #expect(throws: GSLError.self) { try DiscreteDistribution(weights: [0, 0]) }
        #expect(throws: GSLError.self) { try DiscreteDistribution(weights: [1, -1]) }
    }

    @Test func shuffleAndChoose() {
        let r = RandomStream(seed: 4, stream: "shuffle")
        var xs = Array(0..<1000)
        r.shuffle(&xs)
        #expect(xs != Array(0..<1000))
        #expect(xs.sorted() == Array(0..<1000))
        let picked = r.choose(10, from: Array(100..<200))
        #expect(picked.count == 10 && picked == picked.sorted() && Set(picked).count == 10)
        #expect(picked.allSatisfy { (100..<200).contains($0) })
    }

    /// The bisected gamma quantile agrees with GSL's inverse where that converges, and still
    /// answers for shapes where `gsl_cdf_gamma_Pinv` aborts (a posterior over many cases).
    @Test func bisectedGammaQuantile() {
        for (shape, scale) in [(1.0, 5.0), (6.6, 0.8), (40.0, 0.03)] {
            let g = GammaProfile(shape: shape, scale: scale)
            for p in [0.025, 0.5, 0.975] { #expect(abs(g.bisectedQuantile(p) - g.quantile(p)) < 1e-9 * g.quantile(p)) }
        }
        let big = GammaProfile(shape: 250_000, scale: 1 / 200_000)
        let (lo, hi) = (big.bisectedQuantile(0.025), big.bisectedQuantile(0.975))
        #expect(abs(big.cdf(lo) - 0.025) < 1e-9 && abs(big.cdf(hi) - 0.975) < 1e-9)
        #expect(lo < 1.25 && 1.25 < hi && hi - lo < 0.011)
    }
}

import Testing
private func Foundation_exp(_ x: Double) -> Double { Foundation.exp(x) }
