import CGSL

/// Confidence intervals and tests for binomial proportions (rates of false positives,
/// adoption shares, detection rates).
public enum Proportion {
    /// Exact Clopper–Pearson interval from the beta quantile function (`gsl_cdf_beta_Pinv`).
    public static func clopperPearson(successes x: Int, trials n: Int, confidence: Double = 0.95) -> ConfidenceInterval {
        precondition(n > 0 && x >= 0 && x <= n, "Clopper–Pearson needs 0 <= successes <= trials, trials > 0")
        let alpha = 1 - confidence
        let lower = x == 0 ? 0 : betaQuantile(alpha / 2, Double(x), Double(n - x + 1))
        let upper = x == n ? 1 : betaQuantile(1 - alpha / 2, Double(x + 1), Double(n - x))
        return ConfidenceInterval(estimate: Double(x) / Double(n), lower: lower, upper: upper, confidence: confidence)
    }

    /// Beta quantile. `gsl_cdf_beta_Pinv` fails to converge (NaN) for large parameters,
    /// e.g. 37,000 successes in 100,000 trials; then bisect on `gsl_cdf_beta_P`, which itself is
    /// NaN near the mean when the parameters are tens of millions (20 M successes in 54 M
    /// trials): there the beta is normal to many digits, so its normal approximation decides.
    static func betaQuantile(_ q: Double, _ a: Double, _ b: Double) -> Double {
        returnGSLErrors()
        let direct = gsl_cdf_beta_Pinv(q, a, b)
        if direct.isFinite { return direct }
        let mean = a / (a + b), sd = (a * b / ((a + b) * (a + b) * (a + b + 1))).squareRoot()
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 where hi - lo > 1e-15 {
            let mid = (lo + hi) / 2
            var p = gsl_cdf_beta_P(mid, a, b)
            if !p.isFinite { p = gsl_cdf_ugaussian_P((mid - mean) / sd) }
            if p < q { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// Exact interval for the number of trials N behind `x` observed successes when each trial
    /// succeeds with a known probability `p` (X ~ Binomial(N, p)): the N for which `x` is not in
    /// either tail at (1 − confidence)/2, from GSL's binomial CDF. It uses only what an observer
    /// sees (x and p): Immuni's analytics estimate N = x / p from uploads sampled with probability p.
    public static func binomialTrials(successes x: Int, probability p: Double, confidence: Double = 0.95) -> (lower: Int, upper: Int) {
        returnGSLErrors()
        precondition(x >= 0 && x < Int(UInt32.max / 4) && p > 0 && p <= 1, "binomialTrials needs x >= 0 and 0 < p <= 1")
        if p == 1 { return (x, x) }
        let tail = (1 - confidence) / 2
        // P(X >= x | N) grows with N; P(X <= x | N) falls with N.
        func atLeast(_ n: Int) -> Double { x == 0 ? 1 : gsl_cdf_binomial_Q(UInt32(x - 1), p, UInt32(n)) }
        func atMost(_ n: Int) -> Double { gsl_cdf_binomial_P(UInt32(x), p, UInt32(n)) }
        var hi = max(2 * x, 16)
        while atMost(hi) >= tail || atLeast(hi) < tail { hi *= 2 }
        // Smallest N >= x with P(X >= x) >= tail.
        var lo = x, top = hi
        while lo < top {
            let mid = (lo + top) / 2
            if atLeast(mid) >= tail { top = mid } else { lo = mid + 1 }
        }
        let lower = lo
        // Largest N with P(X <= x) >= tail.
        lo = x; top = hi
        while lo < top {
            let mid = (lo + top + 1) / 2
            if atMost(mid) >= tail { lo = mid } else { top = mid - 1 }
        }
        return (lower, lo)
    }

    /// Wilson score interval: narrower than Clopper–Pearson, good coverage for large n.
    public static func wilson(successes x: Int, trials n: Int, confidence: Double = 0.95) -> ConfidenceInterval {
        returnGSLErrors()
        precondition(n > 0 && x >= 0 && x <= n, "Wilson needs 0 <= successes <= trials, trials > 0")
        let z = gsl_cdf_ugaussian_Pinv(0.5 + confidence / 2)
        let nn = Double(n), p = Double(x) / nn
        let denominator = 1 + z * z / nn
        let centre = (p + z * z / (2 * nn)) / denominator
        let half = z * (p * (1 - p) / nn + z * z / (4 * nn * nn)).squareRoot() / denominator
        return ConfidenceInterval(estimate: p, lower: max(0, centre - half), upper: min(1, centre + half), confidence: confidence)
    }

    /// Pooled two-proportion z-test of x1/n1 against x2/n2.
    public static func twoProportionTest(x1: Int, n1: Int, x2: Int, n2: Int) -> TwoProportionTest {
        returnGSLErrors()
        precondition(n1 > 0 && n2 > 0 && (0...n1).contains(x1) && (0...n2).contains(x2), "two-proportion test needs 0 <= x <= n, n > 0")
        let p1 = Double(x1) / Double(n1), p2 = Double(x2) / Double(n2)
        let pooled = (Double(x1) + Double(x2)) / (Double(n1) + Double(n2))
        let se = (pooled * (1 - pooled) * (1 / Double(n1) + 1 / Double(n2))).squareRoot()
        // Both proportions 0 or both 1: no evidence of any difference.
        let z = se > 0 ? (p1 - p2) / se : 0
        return TwoProportionTest(p1: p1, p2: p2, z: z,
                                 pTwoSided: 2 * gsl_cdf_ugaussian_Q(abs(z)),
                                 pGreater: gsl_cdf_ugaussian_Q(z))
    }
}

/// Result of a two-proportion z-test; `pGreater` tests H1: p1 > p2.
public struct TwoProportionTest: Equatable, Sendable, Codable {
    public let p1: Double
    public let p2: Double
    public let z: Double
    public let pTwoSided: Double
    public let pGreater: Double
}
