import CGSL

/// Mean and variance of a stream of values too long to keep (Welford's update),
/// with a Student-t confidence interval from GSL.
public struct RunningStatistics: Sendable, Equatable {
    public private(set) var count = 0
    public private(set) var mean = 0.0
    private var m2 = 0.0
    public private(set) var minimum = Double.infinity
    public private(set) var maximum = -Double.infinity

    public init() {}

    public mutating func add(_ x: Double) {
        count += 1
        let delta = x - mean
        mean += delta / Double(count)
        m2 += delta * (x - mean)
        minimum = Swift.min(minimum, x)
        maximum = Swift.max(maximum, x)
    }

    /// Sample variance (divisor n − 1); 0 with fewer than two values.
    public var variance: Double { count > 1 ? m2 / Double(count - 1) : 0 }

    public func meanConfidenceInterval(confidence: Double = 0.95) -> ConfidenceInterval {
        guard count > 1 else { return ConfidenceInterval(estimate: mean, lower: mean, upper: mean, confidence: confidence) }
        returnGSLErrors()
        let half = gsl_cdf_tdist_Pinv(0.5 + confidence / 2, Double(count - 1)) * (variance / Double(count)).squareRoot()
        return ConfidenceInterval(estimate: mean, lower: mean - half, upper: mean + half, confidence: confidence)
    }
}
