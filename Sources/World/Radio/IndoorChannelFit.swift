import Foundation
import GSL

/// Maximum-likelihood fit of an indoor layer's path-loss exponent n and shadowing σ_S to mean
/// RSSI measured between devices at known distances, in groups that share a placement pair and
/// a sender (Scenarios/data/rss-smartphone/, office-ble/). Each row's negated mean RSSI is, in
/// the channel model,
///
///     −RSSI = c_g + 10·n·log₁₀(d) + B·[body] + S
///
/// with one free offset c_g per group. The offset takes up what the data cannot separate: the
/// attenuation at 1 m A₁, the environment's extra loss L_env, the group's placement losses and
/// the two devices' uncalibrated Tx power and RSSI offset. So L_env is not fitted; n comes from
/// how RSSI falls with distance inside each group and σ_S from the scatter about the group's line.
/// The body-blocking mixture is `base`'s (for phones people carry); a row's variance is σ_S²
/// plus its mean's own (sd² / adverts). Fitted by GSL's Nelder–Mead simplex, standard errors
/// from the curvature.
public enum IndoorChannelFit {
    public struct Row: Sendable, Equatable {
        /// Index of the row's group (placement pair and sender) in 0..<groups.
        public var group: Int
        public var metres: Double
        /// −(mean RSSI) in dB.
        public var meanLoss: Double
        /// Variance of that mean: the adverts' RSSI variance over their number (dB²).
        public var meanVariance: Double
        /// Whether people carried the phones: only then can a body block the line of sight.
        public var carried: Bool
        public init(group: Int, metres: Double, meanLoss: Double, meanVariance: Double, carried: Bool = true) {
            (self.group, self.metres, self.meanLoss, self.meanVariance, self.carried) = (group, metres, meanLoss, meanVariance, carried)
        }
    }

    public struct Result: Sendable {
        public var pathLossExponent: Double
        public var shadowingSigma: Double
        /// Standard errors of n and σ_S (nan where the curvature is not positive).
        public var standardErrors: [Double]
        /// c_g per group and their standard errors.
        public var offsets: [Double]
        public var offsetErrors: [Double]
        public var logLikelihood: Double
        public var rows: Int
        public var converged: Bool
    }

    /// Log-likelihood of `rows` at exponent n, shadowing σ_S and the groups' offsets.
    public static func logLikelihood(_ rows: [Row], base: RadioParameters, exponent: Double, sigma: Double, offsets: [Double]) -> Double {
        let body = [(0.0, 1 - base.bodyBlockProbability), (base.bodyBlockLoss, base.bodyBlockProbability)], clear = [(0.0, 1.0)]
        return rows.reduce(0) { total, row in
            let sd = (sigma * sigma + row.meanVariance).squareRoot()
            let centre = offsets[row.group] + 10 * exponent * log10(row.metres)
            return total + log((row.carried ? body : clear).reduce(0.0) { $0 + $1.1 * Densities.gaussian(row.meanLoss - centre - $1.0, sd: sd) })
        }
    }

    /// - Precondition: every group in 0..<groups has a row.
    public static func fit(_ rows: [Row], groups: Int, base: RadioParameters) -> Result {
        precondition((0..<groups).allSatisfy { g in rows.contains { $0.group == g } }, "every group needs a row")
        // x = [n, σ_S, c_0, …]; σ_S enters as |x| (the likelihood is even in it), so σ = 0 is reachable.
        func negative(_ x: [Double]) -> Double {
            -logLikelihood(rows, base: base, exponent: x[0], sigma: abs(x[1]), offsets: Array(x[2...]))
        }
        let steps = [0.5, 2] + Array(repeating: 2.0, count: groups)
        // The body mixture makes the likelihood bumpy (a row can sit in either body state), with
        // nearby local maxima: start from several exponents and keep the best. The simplex of many
        // dimensions can also collapse early; a restart from its best point settles it.
        let best = [0.5, 1.0, 1.5, 2.0, 2.5].map { exponent in
            let first = Minimize.nelderMead(start: [exponent, 5] + meanOffsets(rows, groups: groups, base: base, exponent: exponent), step: steps,
                                            tolerance: 1e-6, maxIterations: 100_000, negative)
            let again = Minimize.nelderMead(start: first.x, step: steps.map { $0 / 4 }, tolerance: 1e-6, maxIterations: 100_000, negative)
            // Converged if either run's simplex shrank: a restart at the minimum may stop with no progress to make.
            return (point: again.value <= first.value ? again : first, converged: first.converged || again.converged)
        }.min { $0.point.value < $1.point.value }!
        var estimate = best.point.x
        estimate[1] = abs(estimate[1])
        let errors = MaximumLikelihood.standardErrors(at: estimate) {
            -logLikelihood(rows, base: base, exponent: $0[0], sigma: $0[1], offsets: Array($0[2...]))
        }
        return Result(pathLossExponent: estimate[0], shadowingSigma: estimate[1], standardErrors: Array(errors[..<2]),
                      offsets: Array(estimate[2...]), offsetErrors: Array(errors[2...]), logLikelihood: -best.point.value, rows: rows.count,
                      converged: best.converged)
    }
}

extension IndoorChannelFit {
    /// The log-likelihood at a given n and σ_S with each group's offset at its best: what a
    /// channel without the fit's n and σ_S makes of the same data.
    public static func logLikelihoodWithBestOffsets(_ rows: [Row], groups: Int, base: RadioParameters, exponent: Double, sigma: Double) -> Double {
        let start = meanOffsets(rows, groups: groups, base: base, exponent: exponent)
        let best = Minimize.nelderMead(start: start, step: Array(repeating: 2, count: groups), tolerance: 1e-6, maxIterations: 100_000) {
            -logLikelihood(rows, base: base, exponent: exponent, sigma: sigma, offsets: $0)
        }
        return -best.value
    }

    /// Each group's mean of −RSSI less the distance and mean body terms: the simplex's start.
    static func meanOffsets(_ rows: [Row], groups: Int, base: RadioParameters, exponent: Double) -> [Double] {
        let bodyMean = base.bodyBlockProbability * base.bodyBlockLoss
        return (0..<groups).map { g in
            let own = rows.filter { $0.group == g }
            return own.reduce(0.0) { $0 + $1.meanLoss - 10 * exponent * log10($1.metres) - ($1.carried ? bodyMean : 0) } / Double(max(1, own.count))
        }
    }
}
