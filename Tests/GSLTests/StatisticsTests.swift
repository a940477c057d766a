import CGSL
@testable import GSL
import Testing

@Suite struct StatisticsTests {
    @Test func descriptiveStatistics() {
        let xs: [Double] = [5, 1, 4, 2, 3]
        #expect(Statistics.mean(xs) == 3)
        #expect(Statistics.variance(xs) == 2.5)
        #expect(Statistics.sorted(xs) == [1, 2, 3, 4, 5])
        #expect(Statistics.median(xs) == 3)
        #expect(Statistics.quantiles(xs, [0, 0.25, 0.9, 1]) == [1, 2, 4.6, 5])
    }

    @Test func meanIntervalUsesStudentT() {
        // n = 4, mean 2.5, sd 1.2910; t(0.975, 3) = 3.18245.
        let ci = Statistics.meanConfidenceInterval([1, 2, 3, 4])
        #expect(abs(ci.lower - (2.5 - 3.182446 * 1.290994 / 2)) < 1e-5)
        #expect(abs(ci.upper - (2.5 + 3.182446 * 1.290994 / 2)) < 1e-5)
    }

    /// Published exact intervals (e.g. Clopper & Pearson tables; R's binom.test).
    @Test func clopperPearsonKnownValues() {
        let zero = Proportion.clopperPearson(successes: 0, trials: 100)
        #expect(zero.lower == 0)
        #expect(abs(zero.upper - 0.036217) < 1e-6)
        let five = Proportion.clopperPearson(successes: 5, trials: 100)
        #expect(abs(five.lower - 0.016432) < 1e-6)
        #expect(abs(five.upper - 0.112835) < 1e-6)
        let all = Proportion.clopperPearson(successes: 10, trials: 10)
        #expect(all.upper == 1 && abs(all.lower - 0.691503) < 1e-6)
        // Large n, where GSL's own inverse does not converge: compare with the normal approximation.
        let big = Proportion.clopperPearson(successes: 37_000, trials: 100_000)
        let se = (0.37 * 0.63 / 100_000).squareRoot()
        #expect(abs(big.lower - (0.37 - 1.959964 * se)) < 1e-4)
        #expect(abs(big.upper - (0.37 + 1.959964 * se)) < 1e-4)
        #expect(Proportion.betaQuantile(0.975, 37_001, 63_000) > 0.37)
        // Tens of millions of trials (a national run's adverts), where GSL's beta CDF is NaN near
        // the mean: the interval still brackets the estimate, at the normal approximation's width.
        for (x, n) in [(20_000_000, 54_000_000), (3, 100_000_000), (99_999_990, 100_000_000)] {
            let ci = Proportion.clopperPearson(successes: x, trials: n)
            let p = Double(x) / Double(n), wilson = Proportion.wilson(successes: x, trials: n)
            #expect(ci.lower <= p && p <= ci.upper, "\(x) of \(n): \(ci)")
            if x > 1_000 && n - x > 1_000 {
                let se = (p * (1 - p) / Double(n)).squareRoot()
                #expect(abs(ci.lower - (p - 1.959964 * se)) < 0.01 * se && abs(ci.upper - (p + 1.959964 * se)) < 0.01 * se)
            } else {
                #expect(ci.upper > wilson.lower && ci.lower < wilson.upper)
            }
        }
    }

    /// The interval for N behind x ~ Binomial(N, p) is exactly the N with x in neither 2.5% tail.
    @Test func binomialTrialsIntervalIsExact() {
        #expect(Proportion.binomialTrials(successes: 7, probability: 1) == (7, 7))
        #expect(Proportion.binomialTrials(successes: 0, probability: 0.5).lower == 0)
        for (x, p) in [(0, 0.5), (3, 0.1), (30, 0.5), (412, 0.07), (5_000, 0.9)] {
            let (lo, hi) = Proportion.binomialTrials(successes: x, probability: p)
            func atLeast(_ n: Int) -> Double { x == 0 ? 1 : gsl_cdf_binomial_Q(UInt32(x - 1), p, UInt32(n)) }
            func atMost(_ n: Int) -> Double { gsl_cdf_binomial_P(UInt32(x), p, UInt32(n)) }
            #expect(lo >= x && lo <= hi && Double(lo) <= Double(x) / p && Double(x) / p <= Double(hi), "x \(x), p \(p): \(lo)…\(hi)")
            #expect(atLeast(lo) >= 0.025 && (lo == x || atLeast(lo - 1) < 0.025), "lower bound of x \(x), p \(p)")
            #expect(atMost(hi) >= 0.025 && atMost(hi + 1) < 0.025, "upper bound of x \(x), p \(p)")
        }
    }

    /// Its coverage of the true N, over draws from GSL: at least 95% (an exact interval is conservative).
    @Test func binomialTrialsIntervalCoversTheTruth() {
        let rng = RandomStream(seed: 17, stream: "binomial-trials")
        for (n, p) in [(40, 0.3), (1_000, 0.05), (250, 0.8)] {
            var covered = 0
            for _ in 0..<2_000 {
                let (lo, hi) = Proportion.binomialTrials(successes: rng.binomial(p: p, n: n), probability: p)
                if lo <= n && n <= hi { covered += 1 }
            }
            #expect(covered >= 1_880, "N \(n), p \(p): \(covered) of 2000 covered")  // 95% less 3 s.e.
        }
    }

    @Test func wilsonKnownValues() {
        let w = Proportion.wilson(successes: 5, trials: 100)
        #expect(abs(w.lower - 0.021543) < 1e-5)
        #expect(abs(w.upper - 0.111750) < 1e-5)
    }

    @Test func twoProportionTest() {
        let t = Proportion.twoProportionTest(x1: 50, n1: 100, x2: 30, n2: 100)
        #expect(abs(t.z - 2.886751) < 1e-5)
        #expect(abs(t.pTwoSided - 0.003892) < 1e-5)
        #expect(abs(t.pGreater - 0.001946) < 1e-5)
        let same = Proportion.twoProportionTest(x1: 0, n1: 50, x2: 0, n2: 80)
        #expect(same.z == 0 && same.pTwoSided == 1)
    }

    @Test func histogramCountsAndOutOfRange() throws {
        let h = try Histogram(bins: 4, lower: 0, upper: 4)
        for x in [0.5, 1.5, 1.7, 3.99, -1, 4, 10] { h.add(x) }
        #expect((0..<4).map { h.count(bin: $0) } == [1, 2, 0, 1])
        #expect(h.underflow == 1 && h.overflow == 2)
        #expect(h.range(bin: 2) == (2, 3))
        #expect(h.total == 4)
        #expect(throws: GSLError.self) { try Histogram(bins: 0, lower: 0, upper: 1) }
    }
}

@Suite struct RunningStatisticsTests {
    @Test func matchesBatchStatistics() {
        let xs: [Double] = [2, 4, 4, 4, 5, 5, 7, 9]
        var r = RunningStatistics()
        xs.forEach { r.add($0) }
        #expect(r.count == 8 && r.mean == 5)
        #expect(abs(r.variance - Statistics.variance(xs)) < 1e-12)
        #expect(r.minimum == 2 && r.maximum == 9)
        let batch = Statistics.meanConfidenceInterval(xs)
        let running = r.meanConfidenceInterval()
        #expect(abs(batch.lower - running.lower) < 1e-12 && abs(batch.upper - running.upper) < 1e-12)
    }
}

@Suite struct HomogeneityTests {
    /// Two samples of 30 split 10/20 and 20/10: X² = 100/30 + 100/30 with one degree of freedom.
    @Test func twoSamplesStatisticAndPValue() {
        let (x2, p) = GoodnessOfFit.homogeneity([10, 20], [20, 10])
        #expect(abs(x2 - 20.0 / 3) < 1e-12)
        #expect(abs(p - 0.009823) < 1e-5)
        // Unequal totals: the same proportions give 0; empty bins in both are left out.
        #expect(GoodnessOfFit.homogeneity([10, 20, 0], [30, 60, 0]).statistic < 1e-12)
    }

    @Test func samplesOfOneDistributionPassAndShiftedOnesFail() {
        let stream = RandomStream(seed: 3, stream: "homogeneity", generator: .taus2)
        func counts(shift: Double) -> [Int] {
            var c = [Int](repeating: 0, count: 12)
            for _ in 0..<50_000 { c[max(0, min(11, Int((stream.normal(sd: 1) + shift + 3) * 2)))] += 1 }
            return c
        }
        #expect(GoodnessOfFit.homogeneity(counts(shift: 0), counts(shift: 0)).pValue > 0.001)
        #expect(GoodnessOfFit.homogeneity(counts(shift: 0), counts(shift: 0.05)).pValue < 1e-6)
    }
}
