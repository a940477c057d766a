import Foundation
import GSL
import Testing
@testable import World

/// The channel fit finds the parameters that generated its data, and the GSL simplex finds a
/// known minimum.
@Suite struct TransportChannelFitTests {
    @Test func simplexFindsTheMinimumOfAQuadratic() {
        let r = Minimize.nelderMead(start: [0, 0], step: [1, 1], tolerance: 1e-6) { x in (x[0] - 3) * (x[0] - 3) + 2 * (x[1] + 1) * (x[1] + 1) + 5 }
        #expect(r.converged && abs(r.x[0] - 3) < 1e-4 && abs(r.x[1] + 1) < 1e-4 && abs(r.value - 5) < 1e-8, "\(r)")
    }

    @Test func recoversTheParametersItsDataWasDrawnWith() {
        let base = RadioParameters.default
        let (loss, exponent, sigma) = (5.0, 1.5, 4.0)
        let stream = RandomStream(seed: 12, stream: "fit-test")
        let mixture = TransportChannelFit.components(base)
        let choice = try! DiscreteDistribution(weights: mixture.map(\.weight))
        let sd = (sigma * sigma + 2 * base.calibrationErrorSigma * base.calibrationErrorSigma + 1.0 / 3).squareRoot()
        let pairs = (0..<2_000).map { i -> TransportChannelFit.Pair in
            let metres = [0.5, 1, 1.6, 2, 3.3, 5][i % 6]
            let mean = base.attenuationAt1m + loss + 10 * exponent * log10(metres) + mixture[choice.sample(stream)].loss + stream.normal(sd: sd)
            return TransportChannelFit.Pair(metres: metres, meanAttenuation: mean)
        }
        let r = TransportChannelFit.fit(pairs, base: base)
        #expect(r.converged && r.pairs == 2_000)
        #expect(abs(r.environmentLoss - loss) < 3 * r.standardErrors[0], "\(r.environmentLoss) ± \(r.standardErrors[0])")
        #expect(abs(r.pathLossExponent - exponent) < 3 * r.standardErrors[1], "\(r.pathLossExponent) ± \(r.standardErrors[1])")
        #expect(abs(r.shadowingSigma - sigma) < 3 * r.standardErrors[2], "\(r.shadowingSigma) ± \(r.standardErrors[2])")
        #expect(r.standardErrors.allSatisfy { $0 > 0 && $0 < 1 })
        // The fitted point is at least as likely as the true one.
        #expect(r.logLikelihood >= TransportChannelFit.logLikelihood(pairs, base: base, environmentLoss: loss, exponent: exponent, sigma: sigma))
    }

    @Test func smallMatricesInvert() {
        let inverse = MaximumLikelihood.invert([[4, 7], [2, 6]])!
        #expect(abs(inverse[0][0] - 0.6) < 1e-12 && abs(inverse[0][1] + 0.7) < 1e-12 && abs(inverse[1][0] + 0.2) < 1e-12 && abs(inverse[1][1] - 0.4) < 1e-12)
        #expect(MaximumLikelihood.invert([[1, 2], [2, 4]]) == nil)
    }
}
