import Foundation
import GSL

/// Maximum-likelihood fit of the transport layer's channel to measured attenuations (the
/// Dublin tram: pairs of phones at known distances in a carriage). For each pair the
/// minute-weighted mean attenuation ȳ is, in the channel model,
///
///     ȳ = A₁ + L_env + 10·n·log₁₀(d) + L(placements) + B·[body] + S + E
///
/// a mixture over the placement and body states (their shares and losses as in `base`) of
/// normals with variance σ_S² + 2σ_cal² (+ 1/3 dB² for reading 2 dB bands at their middle).
/// Fitted: the environment's extra loss L_env, the path-loss exponent n and the shadowing
/// σ_S, by GSL's Nelder–Mead simplex on the log-likelihood; standard errors from its curvature.
public enum TransportChannelFit {
    public struct Pair: Sendable {
        public var metres: Double
        public var meanAttenuation: Double
        public init(metres: Double, meanAttenuation: Double) {
            self.metres = metres
            self.meanAttenuation = meanAttenuation
        }
    }

    public struct Result: Sendable {
        public var environmentLoss: Double
        public var pathLossExponent: Double
        public var shadowingSigma: Double
        /// Standard errors of the three, in the same order (nan where the curvature is not positive).
        public var standardErrors: [Double]
        public var logLikelihood: Double
        public var pairs: Int
        public var converged: Bool
    }

    /// The placement and body states' loss and probability.
    static func components(_ p: RadioParameters) -> [(loss: Double, weight: Double)] {
        var out: [(Double, Double)] = []
        for (s, ws) in zip(p.placementLoss, p.placementShares) {
            for (r, wr) in zip(p.placementLoss, p.placementShares) {
                out.append((s + r, ws * wr * (1 - p.bodyBlockProbability)))
                out.append((s + r + p.bodyBlockLoss, ws * wr * p.bodyBlockProbability))
            }
        }
        return out
    }

    /// Log-likelihood of `pairs` at (L_env, n, σ_S).
    public static func logLikelihood(_ pairs: [Pair], base: RadioParameters, environmentLoss: Double, exponent: Double, sigma: Double) -> Double {
        let mixture = components(base)
        let variance = sigma * sigma + 2 * base.calibrationErrorSigma * base.calibrationErrorSigma + 1.0 / 3
        let sd = variance.squareRoot()
        return pairs.reduce(0) { total, pair in
            let centre = base.attenuationAt1m + environmentLoss + 10 * exponent * log10(pair.metres)
            let density = mixture.reduce(0.0) { $0 + $1.weight * Densities.gaussian(pair.meanAttenuation - centre - $1.loss, sd: sd) }
            return total + log(density)
        }
    }

    public static func fit(_ pairs: [Pair], base: RadioParameters) -> Result {
        // σ_S enters as |x| (the likelihood is even in it), so σ = 0 is reachable and a minimum there converges.
        func negative(_ x: [Double]) -> Double {
            -logLikelihood(pairs, base: base, environmentLoss: x[0], exponent: x[1], sigma: abs(x[2]))
        }
        let best = Minimize.nelderMead(start: [0, 1, 5], step: [2, 0.5, 2], tolerance: 1e-7, maxIterations: 20_000, negative)
        let estimate = [best.x[0], best.x[1], abs(best.x[2])]
        let errors = MaximumLikelihood.standardErrors(at: estimate) { -logLikelihood(pairs, base: base, environmentLoss: $0[0], exponent: $0[1], sigma: $0[2]) }
        return Result(environmentLoss: estimate[0], pathLossExponent: estimate[1], shadowingSigma: estimate[2], standardErrors: errors,
                      logLikelihood: -best.value, pairs: pairs.count, converged: best.converged)
    }
}
