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

    public func density(_ x: Double) -> Double { x <= 0 ? 0 : gsl_ran_gamma_pdf(x, shape, scale) }

    public func quantile(_ p: Double) -> Double { gsl_cdf_gamma_Pinv(p, shape, scale) }

    /// The mode, where the density peaks (0 for shapes up to 1).
    public var mode: Double { max(0, (shape - 1) * scale) }
}
