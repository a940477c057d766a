import Foundation
import SimulationCore

/// The distribution of M_n = max − mean of n independent standard normals (its negative is
/// min − mean), tabulated by McKay's recursion (Biometrika 27, 1935):
///
///     P(M_n ≤ x) = ∫ P(M_{n−1} ≤ x + v/n) φ_V(v) dv over v ≤ x·n/(n−1), V ~ N(0, n/(n−1)),
///
/// because adding an n-th normal moves the first n−1 deviations by −V/n, where V (the new value
/// less the old mean) is independent of them, and gives the new value the deviation V·(n−1)/n.
/// It starts from M_2 = |Z₁ − Z₂|/2, with P(M_2 ≤ x) = erf(x).
package struct MaxDeviation: Sendable {
    /// The CDF at multiples of `step` from 0 to `top` (where it is set to 1: P(M_n > 8) < 1e-13 for n ≤ 40).
    package let cdf: [Double]
    /// `guide[k]`: the first index whose CDF exceeds k / guide.count, to start each inversion near its answer.
    package let guide: [Int32]
    package static let step = 1.0 / 512
    package static let top = 8.0

    /// The tables for n = 0…`adverts` (n < 2 hold none), built on first need and kept for the process.
    /// Each table's points are computed on up to `threads` threads (the same table for any count).
    package static func tables(upTo adverts: Int, threads: Int = 1) -> [MaxDeviation] {
        lock.withLock {
            if cache.isEmpty {
                let erfs = (0...Int(top / step)).map { erf(Double($0) * step) }
                cache = [MaxDeviation(cdf: [0, 1]), MaxDeviation(cdf: [0, 1]), MaxDeviation(cdf: erfs)]
            }
            while cache.count <= adverts {
                cache.append(MaxDeviation(cdf: next(cache[cache.count - 1].cdf, n: cache.count, threads: threads)))
            }
            return Array(cache[0...max(adverts, 2)])
        }
    }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [MaxDeviation] = []

    private init(cdf values: [Double]) {
        var cdf = values
        cdf[cdf.count - 1] = 1
        self.cdf = cdf
        let slots = 1024
        var guide = [Int32](repeating: 0, count: slots)
        var i = 0
        for k in 0..<slots {
            while i < cdf.count - 1 && cdf[i] <= Double(k) / Double(slots) { i += 1 }
            guide[k] = Int32(i)
        }
        self.guide = guide
    }

    /// M_n's CDF from M_{n−1}'s. With y = x + v/n the recursion is a convolution on the grid,
    ///     P(M_n ≤ x) = ∫₀^{x·n/(n−1)} P(M_{n−1} ≤ y) φ((y − x)·k)·k dy,  k = n/s, s² = n/(n−1),
    /// integrated exactly for P(M_{n−1} ≤ y) linear between grid points (a normal's mass and first
    /// moment over each cell), so the only error is the interpolation's.
    private static func next(_ previous: [Double], n: Int, threads: Int) -> [Double] {
        let nd = Double(n), k = nd / (nd / (nd - 1)).squareRoot(), delta = step * k
        @Sendable func cdf(_ t: Double) -> Double { erfc(-t / 2.0.squareRoot()) / 2 }
        @Sendable func density(_ t: Double) -> Double { exp(-t * t / 2) / (2 * Double.pi).squareRoot() }
        // Over the cell from grid offset d to d + 1 (t = d·δ … (d + 1)·δ): a linear F_j + (F_{j+1} − F_j)·(t/δ − d)
        // integrates to F_j·mass[d] + (F_{j+1} − F_j)·slope[d]. Offsets beyond ±`reach` hold no mass.
        let reach = min(previous.count, Int(10 / delta) + 2)
        @Sendable func cell(_ d: Int, to end: Double) -> (mass: Double, slope: Double) {
            let t0 = Double(d) * delta, t1 = end * delta
            let mass = cdf(t1) - cdf(t0)
            return (mass, (density(t0) - density(t1)) / delta - Double(d) * mass)
        }
        let cells = (-reach...reach).map { cell($0, to: Double($0 + 1)) }
        // Buffers, not arrays, in the inner loop: its bounds checks were half of a run's set-up.
        return previous.withUnsafeBufferPointer { previous in cells.withUnsafeBufferPointer { cells in
            let f = SharedReadBuffer(base: previous), cells = SharedReadBuffer(base: cells)
            return [Double](unsafeUninitializedCapacity: previous.count) { buffer, initialized in
                let out = SharedBuffer(base: buffer)
                // Each point on its own: the points are independent, so any split gives the same table.
                ShardLayout(count: previous.count, threads: threads, shardsPerThread: 4).forEach(threads: threads) { points in
                    let f = f.base, cells = cells.base
                    for i in points {
                        let upper = Double(i) * nd / (nd - 1), whole = Int(upper)
                        var sum = 0.0
                        for j in max(0, i - reach)..<min(whole, f.count - 1, i + reach) {
                            let c = cells[j &- i &+ reach]
                            sum += f[j] * c.mass + (f[j + 1] - f[j]) * c.slope
                        }
                        if whole < f.count - 1 {
                            // The part of a cell up to the upper limit.
                            let c = cell(whole - i, to: upper - Double(i))
                            sum += f[whole] * c.mass + (f[whole + 1] - f[whole]) * c.slope
                        } else {
                            // Beyond the table P(M_{n−1} ≤ y) = 1.
                            sum += cdf((upper - Double(i)) * delta) - cdf(Double(f.count - 1 - i) * delta)
                        }
                        (out.base.baseAddress! + i).initialize(to: min(1, sum))
                    }
                }
                initialized = previous.count
            }
        } }
    }

    /// The value of M_n at probability `u` in [0, 1): the tabulated CDF inverted, linear between points.
    package func quantile(_ u: Double) -> Double {
        cdf.withUnsafeBufferPointer { cdf in guide.withUnsafeBufferPointer { Self.quantile(u, cdf: cdf.baseAddress!, guide: $0) } }
    }

    /// `quantile` on a table's CDF and guide as buffers (no reference counting on the hot path).
    @inline(__always)
    package static func quantile(_ u: Double, cdf: UnsafePointer<Double>, guide: UnsafeBufferPointer<Int32>) -> Double {
        var i = Int(guide[Int(u * Double(guide.count))])
        while cdf[i] <= u { i &+= 1 }
        let below = cdf[i &- 1]
        return (Double(i &- 1) + (u - below) / (cdf[i] - below)) * step
    }
}
