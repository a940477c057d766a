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
