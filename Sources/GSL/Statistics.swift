import CGSL

/// Descriptive statistics over samples, computed by GSL.
public enum Statistics {
    public static func mean(_ data: [Double]) -> Double {
        precondition(!data.isEmpty, "mean of no data")
        return data.withUnsafeBufferPointer { gsl_stats_mean($0.baseAddress, 1, $0.count) }
    }

    /// Sample variance (divisor n − 1).
    public static func variance(_ data: [Double]) -> Double {
        precondition(data.count >= 2, "variance needs at least two values")
        return data.withUnsafeBufferPointer { gsl_stats_variance($0.baseAddress, 1, $0.count) }
    }

    public static func standardDeviation(_ data: [Double]) -> Double {
        precondition(data.count >= 2, "standard deviation needs at least two values")
        return data.withUnsafeBufferPointer { gsl_stats_sd($0.baseAddress, 1, $0.count) }
    }

    /// Ascending copy, sorted by `gsl_sort`.
    public static func sorted(_ data: [Double]) -> [Double] {
        var copy = data
        copy.withUnsafeMutableBufferPointer { gsl_sort($0.baseAddress, 1, $0.count) }
        return copy
    }

    /// Sorts `data` ascending in place with `gsl_sort` (no copy, for large samples).
    public static func sortInPlace(_ data: inout [Double]) {
        data.withUnsafeMutableBufferPointer { gsl_sort($0.baseAddress, 1, $0.count) }
    }

    /// Quantile `p` in [0, 1] of already sorted data (GSL's linear interpolation).
    public static func quantile(sorted data: [Double], _ p: Double) -> Double {
        precondition(!data.isEmpty, "quantile of no data")
        precondition((0...1).contains(p), "quantile needs 0 <= p <= 1")
        return data.withUnsafeBufferPointer { gsl_stats_quantile_from_sorted_data($0.baseAddress, 1, $0.count, p) }
    }

    /// Several quantiles with one sort.
    public static func quantiles(_ data: [Double], _ ps: [Double]) -> [Double] {
        let s = sorted(data)
        return ps.map { quantile(sorted: s, $0) }
    }

    public static func median(_ data: [Double]) -> Double { quantile(sorted: sorted(data), 0.5) }

    /// Two-sided confidence interval for a mean, from Student's t (`gsl_cdf_tdist_Pinv`).
    public static func meanConfidenceInterval(_ data: [Double], confidence: Double = 0.95) -> ConfidenceInterval {
        returnGSLErrors()
        let n = Double(data.count)
        let m = mean(data)
        let halfWidth = gsl_cdf_tdist_Pinv(0.5 + confidence / 2, n - 1) * standardDeviation(data) / n.squareRoot()
        return ConfidenceInterval(estimate: m, lower: m - halfWidth, upper: m + halfWidth, confidence: confidence)
    }
}

/// An estimate with its two-sided confidence interval.
public struct ConfidenceInterval: Equatable, Sendable, Codable {
    public let estimate: Double
    public let lower: Double
    public let upper: Double
    public let confidence: Double

    public init(estimate: Double, lower: Double, upper: Double, confidence: Double) {
        self.estimate = estimate
        self.lower = lower
        self.upper = upper
        self.confidence = confidence
    }

    public func contains(_ value: Double) -> Bool { lower <= value && value <= upper }
}
