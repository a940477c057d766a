import Foundation
import GSL

/// A scan window far enough below the reception threshold that almost every advert arrives,
/// drawn in closed form: two draws instead of two per advert (~17).
///
/// For n independent normal fadings the sample mean is independent of the deviations from it
/// (so of min − mean), and min − mean has a distribution that depends on n alone
/// (`MaxDeviation`). Such a window is the mean, μ + σ·Z̄, and its minimum, the mean − σ·M_n.
/// Treating every advert as received is the approximation, so it is only taken where the
/// expected share of lost adverts is at most `lossShare`; there the received adverts' mean sits
/// `tilt(mean:)` below the mean of all (the weak ones are the ones lost), which the typical
/// attenuation adds. The (typical, minimum) bytes then agree with the per-advert draw by a
/// chi-square test at the limit itself (`LosslessWindowTests`).
package struct LosslessWindow: Sendable {
    /// The expected share of a window's adverts lost at the limit.
    package static let lossShare = 0.02
    /// Largest advert count with a `MaxDeviation` table; windows with more draw per advert.
    package static let maxAdverts = 40

    /// Mean attenuation (before fading) at or below which windows are drawn lossless.
    package let limit: Double
    /// `tilt` at `limit − i · tiltStep` dB.
    private let tilts: [Double]
    private static let tiltStep = 1.0 / 8
    private let fadingSigma: Double
    /// fadingSigma / √n for n adverts, the sample mean's sd: a square root and a division each
    /// window were an eighth of the window's time.
    private let meanSD: [Double]
    /// `MaxDeviation`'s CDFs and guides for 0…the most adverts a window can hold (at most
    /// `maxAdverts`), each table at `n ·` its length, in one array each.
    private let cdfs: [Double], guides: [Int32]
    private let tables: Int, cdfLength: Int, guideLength: Int

    package init(fadingSigma sigma: Double, receptionMidpoint midpoint: Double, receptionScale scale: Double, mostAdverts: Int) {
        fadingSigma = sigma
        let deviations = MaxDeviation.tables(upTo: max(0, min(mostAdverts, Self.maxAdverts)))
        (tables, cdfLength, guideLength) = (deviations.count, deviations[2].cdf.count, deviations[2].guide.count)
        // Tables for n < 2 are never read: their slots hold the n = 2 table to keep the layout uniform.
        cdfs = deviations.indices.flatMap { deviations[max(2, $0)].cdf }
        guides = deviations.indices.flatMap { deviations[max(2, $0)].guide }
        meanSD = deviations.indices.map { sigma / Double($0).squareRoot() }
        let lost = { (a: Double) in 1 / (1 + exp(-(a - midpoint) / scale)) }
        // The expected lost share grows with the mean: bisect for the mean where it is `lossShare`.
        var low = midpoint - 200, high = midpoint
        for _ in 0..<80 {
            let m = (low + high) / 2
            if Self.normalExpectation(sigma: sigma, mean: m, lost) > Self.lossShare { high = m } else { low = m }
        }
        let limit = low
        self.limit = limit
        // Below 40 dB under the limit the tilt is far below a thousandth of a dB.
        tilts = (0...Int(40 / Self.tiltStep)).map { i in
            let m = limit - Double(i) * Self.tiltStep
            let received = Self.normalExpectation(sigma: sigma, mean: m) { 1 - lost($0) }
            return Self.normalExpectation(sigma: sigma, mean: m) { ($0 - m) * (1 - lost($0)) } / received
        }
    }

    /// E[f(mean + σZ)] for a standard normal Z, by Simpson's rule over ±8 σ.
    private static func normalExpectation(sigma: Double, mean: Double, _ f: (Double) -> Double) -> Double {
        let panels = 400, h = 16.0 / Double(panels)
        var sum = 0.0
        for i in 0...panels {
            let z = -8 + Double(i) * h
            let weight = i == 0 || i == panels ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0)
            sum += weight * exp(-z * z / 2) * f(mean + sigma * z)
        }
        return sum * h / 3 / (2 * Double.pi).squareRoot()
    }

    /// E[attenuation − mean | received] at this mean (≤ 0): the shift of the received adverts' mean.
    @inline(__always)
    package func tilt(mean: Double) -> Double {
        let x = (limit - mean) / Self.tiltStep
        return tilts.withUnsafeBufferPointer { tilts in
            guard x >= 0 else { return tilts[0] }
            let i = Int(x)
            guard i &+ 1 < tilts.count else { return 0 }
            return tilts[i] + (tilts[i &+ 1] - tilts[i]) * (x - Double(i))
        }
    }

    /// A window of `adverts` adverts at mean attenuation `mean` from a normal and a uniform of
    /// `stream`, or nil (nothing drawn: the caller draws per advert) when `mean` is above `limit`,
    /// or `adverts` is outside 1…`maxAdverts` or beyond the most adverts the parameters allow.
    @inline(__always)
    package func window(mean: Double, adverts: Int, stream: RandomStream) -> (typical: UInt8, minimum: UInt8)? {
        guard mean <= limit, adverts >= 1 && adverts < tables else { return nil }
        // Buffers, not arrays: `adverts` is checked against the tables above, once.
        let sampleMean = mean + stream.normal(sd: meanSD.withUnsafeBufferPointer { $0[adverts] })
        let spread = adverts == 1 ? 0 : cdfs.withUnsafeBufferPointer { cdf in
            guides.withUnsafeBufferPointer { guide in
                MaxDeviation.quantile(stream.uniform(), cdf: cdf.baseAddress! + adverts &* cdfLength,
                                      guide: UnsafeBufferPointer(start: guide.baseAddress! + adverts &* guideLength, count: guideLength))
            }
        }
        return (ChannelModel.byte(sampleMean + tilt(mean: mean)), ChannelModel.byte(sampleMean - fadingSigma * spread))
    }
}
