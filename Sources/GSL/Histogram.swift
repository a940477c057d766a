import CGSL

/// Fixed-range histogram over `gsl_histogram` (uniform bins on [lower, upper)).
/// Values outside the range are counted as underflow/overflow rather than dropped silently.
public final class Histogram {
    private let h: UnsafeMutablePointer<gsl_histogram>
    public let lower: Double
    public let upper: Double
    public private(set) var underflow = 0
    public private(set) var overflow = 0

    public init(bins: Int, lower: Double, upper: Double) throws {
        guard bins > 0, lower < upper, lower.isFinite, upper.isFinite else {
            throw GSLError.invalidArgument("histogram needs bins > 0 and a finite range lower < upper")
        }
        returnGSLErrors()
        guard let h = gsl_histogram_alloc(bins) else {
            throw GSLError.invalidArgument("GSL could not allocate a histogram of \(bins) bins")
        }
        gsl_histogram_set_ranges_uniform(h, lower, upper)
        self.h = h
        self.lower = lower
        self.upper = upper
    }

    deinit { gsl_histogram_free(h) }

    public var binCount: Int { gsl_histogram_bins(h) }

    public func add(_ x: Double, weight: Double = 1) {
        if x < lower { underflow += 1; return }
        if x >= upper { overflow += 1; return }
        gsl_histogram_accumulate(h, x, weight)
    }

    public func count(bin i: Int) -> Double { gsl_histogram_get(h, i) }

    public func range(bin i: Int) -> (lower: Double, upper: Double) {
        var a = 0.0, b = 0.0
        gsl_histogram_get_range(h, i, &a, &b)
        return (a, b)
    }

    public var total: Double { gsl_histogram_sum(h) }
    public var mean: Double { gsl_histogram_mean(h) }
    public var standardDeviation: Double { gsl_histogram_sigma(h) }
}
