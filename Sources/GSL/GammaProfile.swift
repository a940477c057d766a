import CGSL

/// The gamma distribution's density and quantiles (GSL), for shapes over time such as an
/// infectiousness profile; drawing from it is `RandomStream.gamma`.
public struct GammaProfile: Sendable, Equatable {
    public let shape: Double
    public let scale: Double

    /// The gamma distribution with this mean and standard deviation (both > 0).
    public init(mean: Double, sd: Double) {
        shape = (mean / sd) * (mean / sd)
        scale = sd * sd / mean
    }

    /// The gamma distribution with this shape and scale (both > 0).
    public init(shape: Double, scale: Double) {
        self.shape = shape
        self.scale = scale
    }

    public func density(_ x: Double) -> Double { x <= 0 ? 0 : gsl_ran_gamma_pdf(x, shape, scale) }

    public func quantile(_ p: Double) -> Double {
        returnGSLErrors()
        return gsl_cdf_gamma_Pinv(p, shape, scale)
    }

    /// The quantile by bisection on `gsl_cdf_gamma_P`: `gsl_cdf_gamma_Pinv` fails to converge
    /// (NaN) for large shapes such as a posterior over thousands of cases.
    public func bisectedQuantile(_ p: Double) -> Double {
        let mean = shape * scale, sd = shape.squareRoot() * scale
        var lo = 0.0, hi = mean + 40 * sd
        for _ in 0..<200 where hi - lo > 1e-13 * hi {
            let mid = (lo + hi) / 2
            if cdf(mid) < p { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// P(X ≤ x) (`gsl_cdf_gamma_P`).
    public func cdf(_ x: Double) -> Double {
        returnGSLErrors()
        return x <= 0 ? 0 : gsl_cdf_gamma_P(x, shape, scale)
    }

    /// The mode, where the density peaks (0 for shapes up to 1).
    public var mode: Double { max(0, (shape - 1) * scale) }
}
