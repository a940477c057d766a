import Foundation
import GSL
import SimulationCore

/// A scan window far enough below the reception threshold that few adverts are lost, drawn in
/// closed form: two draws instead of two per advert (~17).
///
/// For n independent normal fadings the sample mean is independent of the deviations from it
/// (so of min − mean), and min − mean has a distribution that depends on n alone
/// (`MaxDeviation`). Such a window is a mean, μ + s·Z, and its minimum, that mean − σ·M_n.
/// Lost adverts are the weak ones, so three corrections, exact in their moments, make the window
/// that of the received adverts where up to `lossShare` of them are lost on average:
/// - the typical attenuation adds `E[A − μ | received]` (the tilt, below 0);
/// - s is the sd of the received adverts' mean, √(Var[A | received] · E[1/K | K ≥ 1]) for the
///   K ~ Binomial(n, received share) adverts received, not σ/√n (the minimum shares it, which
///   also gives the minimum the received adverts' spread);
/// - the minimum adds E[min of the received] − E[min of all n] (≥ 0: the strongest is rarely lost).
/// The (typical, minimum) bytes then agree with the per-advert draw by a chi-square test at the
/// limit itself (`ClosedFormWindowTests`). With fewer adverts the received ones are fewer still
/// and the form holds less far: 8% loss from 12 adverts (the defaults give 14–20), 2% below.
package struct ClosedFormWindow: Sendable {
    /// The expected share of a window's adverts lost at the limit, from `fullLimitAdverts` adverts.
    package static let lossShare = 0.08
    /// The same for windows of `minAdverts` to `fullLimitAdverts` − 1 adverts.
    package static let fewAdvertsLossShare = 0.02
    package static let fullLimitAdverts = 12
    /// Largest advert count with a `MaxDeviation` table; windows with more draw per advert.
    package static let maxAdverts = 40
    /// Fewest adverts drawn in closed form: with fewer the form fails the test even at 2% loss.
    package static let minAdverts = 4

    /// Mean attenuation (before fading) at or below which windows of `fullLimitAdverts` adverts
    /// or more are drawn in closed form; `fewAdvertsLimit` for fewer.
    package let limit: Double, fewAdvertsLimit: Double
    /// At `limit − i · step` dB, per advert count n: the tilt, the sample mean's sd and the
    /// minimum's shift at rows i and i + 1, one cache line per (i, n) (`CorrectionRows`). Zero
    /// (and σ/√n) beyond 40 dB below the limit.
    private let rows: CorrectionRows
    private static let step = 1.0 / 8, rowCount = Int(40 / step) + 1
    private let fadingSigma: Double
    /// `MaxDeviation`'s CDFs and guides for 0…the most adverts a window can hold (at most
    /// `maxAdverts`), each table at `n ·` its length, in one array each.
    private let cdfs: [Double], guides: [Int32]
    private let tables: Int, cdfLength: Int, guideLength: Int

    /// - Parameter threads: the rows (and `MaxDeviation`'s points) are computed on up to this
    ///   many threads; each on its own, so the window is the same for any count.
    package init(fadingSigma sigma: Double, receptionMidpoint midpoint: Double, receptionScale scale: Double, mostAdverts: Int,
                 threads: Int = 1) {
        fadingSigma = sigma
        let deviations = MaxDeviation.tables(upTo: max(0, min(mostAdverts, Self.maxAdverts)), threads: threads)
        let tables = deviations.count
        (self.tables, cdfLength, guideLength) = (tables, deviations[2].cdf.count, deviations[2].guide.count)
        // Tables for n < 2 are never read: their slots hold the n = 2 table to keep the layout uniform.
        cdfs = deviations.indices.flatMap { deviations[max(2, $0)].cdf }
        guides = deviations.indices.flatMap { deviations[max(2, $0)].guide }
        let lost = { @Sendable (a: Double) in 1 / (1 + exp(-(a - midpoint) / scale)) }
        // The expected lost share grows with the mean: bisect for the mean where it is `share`.
        func limitOf(share: Double) -> Double {
            var low = midpoint - 200, high = midpoint
            for _ in 0..<80 {
                let m = (low + high) / 2
                if Self.normalExpectation(sigma: sigma, mean: m, lost) > share { high = m } else { low = m }
            }
            return low
        }
        let limit = limitOf(share: Self.lossShare)
        (self.limit, fewAdvertsLimit) = (limit, limitOf(share: Self.fewAdvertsLossShare))
        // Row i: its tilt, then (meanSD, minShift) for each n.
        let rows = ShardResults<(tilt: Double, meanSDs: [Double], minShifts: [Double])>(count: Self.rowCount)
        forEachItem(count: Self.rowCount, threads: threads) { i in
            let m = limit - Double(i) * Self.step
            let received = Self.normalExpectation(sigma: sigma, mean: m) { 1 - lost($0) }
            let tilt = Self.normalExpectation(sigma: sigma, mean: m) { ($0 - m) * (1 - lost($0)) } / received
            let variance = Self.normalExpectation(sigma: sigma, mean: m) { ($0 - m - tilt) * ($0 - m - tilt) * (1 - lost($0)) } / received
            let shifts = Self.minimumShifts(sigma: sigma, mean: m, tables: tables) { 1 - lost($0) }
            let meanSDs = (0..<tables).map { n in n < 1 ? 0 : (variance * Self.inverseCountMean(n: n, p: received)).squareRoot() }
            rows.set(i, (tilt, meanSDs, shifts))
        }
        let all = rows.all
        self.rows = CorrectionRows(tilts: all.map(\.tilt), meanSDs: all.flatMap(\.meanSDs), minShifts: all.flatMap(\.minShifts),
                                   tables: tables)
    }

    /// The window for these parameters, built once per process: every simulation builds its
    /// channel model, and the corrections took 282 M instructions (~80 ms) of each (a sweep's
    /// replicates, the tests).
    /// Holds the last few parameter sets (a sweep over the radio's parameters builds more).
    package static func shared(fadingSigma: Double, receptionMidpoint: Double, receptionScale: Double,
                               mostAdverts: Int, threads: Int = 1) -> ClosedFormWindow {
        let key = [fadingSigma.bitPattern, receptionMidpoint.bitPattern, receptionScale.bitPattern, UInt64(bitPattern: Int64(mostAdverts))]
        return cacheLock.withLock {
            if let window = cache[key] { return window }
            if cache.count >= 8 { cache.removeAll() }
            let window = ClosedFormWindow(fadingSigma: fadingSigma, receptionMidpoint: receptionMidpoint, receptionScale: receptionScale,
                                          mostAdverts: mostAdverts, threads: threads)
            cache[key] = window
            return window
        }
    }
    private static let cacheLock = NSLock()
    nonisolated(unsafe) private static var cache: [[UInt64]: ClosedFormWindow] = [:]

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

    /// E[1/K | K ≥ 1] for K ~ Binomial(n, p), p ≥ 1/2 here: the pmf from k = n down (pⁿ cannot underflow).
    private static func inverseCountMean(n: Int, p: Double) -> Double {
        var pmf = pow(p, Double(n)), sum = 0.0, mass = 0.0
        for k in stride(from: n, through: 1, by: -1) {
            sum += pmf / Double(k)
            mass += pmf
            pmf *= Double(k) / Double(n - k + 1) * (1 - p) / p
        }
        return sum / mass
    }

    /// E[min of the received adverts | any received] − E[min of all n] for n = 0..<tables, with
    /// fadings N(mean, σ²) each received with probability `receives`. On a grid of z over ±8:
    /// P(the received minimum ≤ x) = 1 − (1 − R(x))ⁿ, R(x) = P(received and ≤ x), normalised by
    /// P(any received); the same sum with R = Φ for all n, so the grid's errors cancel.
    private static func minimumShifts(sigma: Double, mean: Double, tables: Int, _ receives: (Double) -> Double) -> [Double] {
        let points = 801, h = 16.0 / Double(points - 1)
        var r = [Double](repeating: 0, count: points), phi = r
        for i in 1..<points {
            let z0 = -8 + Double(i - 1) * h, z1 = z0 + h
            let d0 = exp(-z0 * z0 / 2), d1 = exp(-z1 * z1 / 2)
            let c = h / 2 / (2 * Double.pi).squareRoot()
            phi[i] = phi[i - 1] + (d0 + d1) * c
            r[i] = r[i - 1] + (d0 * receives(mean + sigma * z0) + d1 * receives(mean + sigma * z1)) * c
        }
        var shifts = [Double](repeating: 0, count: tables)
        // (1 − R)ⁿ and (1 − Φ)ⁿ, one factor more per n.
        var powR = [Double](repeating: 1, count: points), powPhi = powR
        for n in 1..<tables {
            for i in 0..<points { powR[i] *= 1 - r[i]; powPhi[i] *= 1 - phi[i] }
            // E[min] = top − ∫ CDF; the difference of the two minima is ∫ (CDF_all − CDF_received).
            let any = 1 - powR[points - 1], all = 1 - powPhi[points - 1]
            var integral = 0.0
            for i in 1..<points {
                let f0 = (1 - powPhi[i - 1]) / all - (1 - powR[i - 1]) / any
                let f1 = (1 - powPhi[i]) / all - (1 - powR[i]) / any
                integral += (f0 + f1) / 2 * h
            }
            shifts[n] = n == 1 ? 0 : sigma * integral
        }
        return shifts
    }

    /// The tilt, the sample mean's sd and the minimum's shift at `mean` for n adverts, linear
    /// between the table's rows (40 dB below the limit and beyond: 0, σ/√n, 0).
    @inline(__always)
    package func corrections(mean: Double, adverts n: Int) -> (tilt: Double, sd: Double, shift: Double) {
        let x = max(0, (limit - mean) / Self.step)
        let i = Int(x)
        guard i &+ 1 < Self.rowCount else { return (0, fadingSigma / Double(n).squareRoot(), 0) }
        let f = x - Double(i), r = rows.base + (i &* tables &+ n) &* CorrectionRows.stride
        return (r[0] + (r[3] - r[0]) * f, r[1] + (r[4] - r[1]) * f, r[2] + (r[5] - r[2]) * f)
    }

    /// The limit for windows of `adverts` adverts.
    @inline(__always)
    package func limit(adverts: Int) -> Double { adverts >= Self.fullLimitAdverts ? limit : fewAdvertsLimit }

    /// A window of `adverts` adverts at mean attenuation `mean` from a normal and a uniform of
    /// `stream`, or nil (nothing drawn: the caller draws per advert) when `mean` is above its
    /// limit, or `adverts` is outside `minAdverts`…`maxAdverts` or beyond the most adverts the
    /// parameters allow. The minimum is at most the typical attenuation, as every window's is.
    @inline(__always)
    package func window(mean: Double, adverts: Int, stream: RandomStream) -> (typical: UInt8, minimum: UInt8)? {
        guard mean <= limit(adverts: adverts), adverts >= Self.minAdverts && adverts < tables else { return nil }
        let c = corrections(mean: mean, adverts: adverts)
        let sampleMean = mean + stream.normal(sd: c.sd)
        // Buffers, not arrays: `adverts` is checked against the tables above, once.
        let spread = cdfs.withUnsafeBufferPointer { cdf in
            guides.withUnsafeBufferPointer { guide in
                MaxDeviation.quantile(stream.uniform(), cdf: cdf.baseAddress! + adverts &* cdfLength,
                                      guide: UnsafeBufferPointer(start: guide.baseAddress! + adverts &* guideLength, count: guideLength))
            }
        }
        let typical = ChannelModel.byte(sampleMean + c.tilt)
        return (typical, min(typical, ChannelModel.byte(sampleMean - fadingSigma * spread + c.shift)))
    }
}

/// The closed form's corrections by (row i, advert count n), each record the tilt, sd and
/// shift at row i and then at row i + 1: the three tables and both rows a window interpolates
/// between are one 64-byte line, where separate tables were five.
private final class CorrectionRows: @unchecked Sendable {
    static let stride = 8
    /// Written once in `init`, only read after.
    let base: UnsafeMutablePointer<Double>

    /// `tilts[i]`, and `meanSDs` and `minShifts` at i · tables + n.
    init(tilts: [Double], meanSDs: [Double], minShifts: [Double], tables: Int) {
        let count = tilts.count * tables * Self.stride
        base = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Double>.stride, alignment: 64)
            .bindMemory(to: Double.self, capacity: count)
        base.initialize(repeating: 0, count: count)
        for i in tilts.indices {
            for n in 0..<tables {
                let r = base + (i * tables + n) * Self.stride, a = i * tables + n
                (r[0], r[1], r[2]) = (tilts[i], meanSDs[a], minShifts[a])
                // The last row has no next one: `corrections` does not read it there.
                if i + 1 < tilts.count { (r[3], r[4], r[5]) = (tilts[i + 1], meanSDs[a + tables], minShifts[a + tables]) }
            }
        }
    }

    deinit { base.deallocate() }
}
