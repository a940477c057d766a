import CGSL

/// Goodness-of-fit tests for checking random outcomes against a model.
public enum GoodnessOfFit {
    /// Pearson's chi-square statistic of observed counts against expected counts, and its
    /// upper-tail p-value (`gsl_cdf_chisq_Q`, degrees of freedom = bins − 1 − fitted parameters).
    public static func chiSquare(observed: [Int], expected: [Double], fittedParameters: Int = 0) -> (statistic: Double, pValue: Double) {
        returnGSLErrors()
        precondition(observed.count == expected.count && observed.count > 1 + fittedParameters, "need matching bins")
        var x2 = 0.0
        for (o, e) in zip(observed, expected) {
            precondition(e > 0, "expected counts must be positive")
            x2 += (Double(o) - e) * (Double(o) - e) / e
        }
        return (x2, gsl_cdf_chisq_Q(x2, Double(observed.count - 1 - fittedParameters)))
    }
}

extension GoodnessOfFit {
    /// Whether two samples' counts over the same bins come from one distribution: the two-sample
    /// chi-square statistic Σ (a·√(B/A) − b·√(A/B))² / (a + b) over bins with any count (A, B the
    /// totals), and its upper-tail p-value with bins − 1 degrees of freedom. Merge sparse bins first:
    /// the chi-square law needs a few counts in each.
    public static func homogeneity(_ a: [Int], _ b: [Int]) -> (statistic: Double, pValue: Double) {
        returnGSLErrors()
        precondition(a.count == b.count, "need matching bins")
        let totalA = Double(a.reduce(0, +)), totalB = Double(b.reduce(0, +))
        precondition(totalA > 0 && totalB > 0, "need counts in both samples")
        let ka = (totalB / totalA).squareRoot(), kb = (totalA / totalB).squareRoot()
        var x2 = 0.0, bins = 0
        for (x, y) in zip(a, b) where x + y > 0 {
            let d = Double(x) * ka - Double(y) * kb
            x2 += d * d / Double(x + y)
            bins += 1
        }
        precondition(bins > 1, "need counts in two bins or more")
        return (x2, gsl_cdf_chisq_Q(x2, Double(bins - 1)))
    }
}
