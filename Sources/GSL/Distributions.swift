import CGSL

/// Thin calls into GSL's samplers. Parameters are named as in GSL's documentation.
extension RandomStream {
    /// Uniform on [0, 1).
    @inlinable @inline(__always)
    public func uniform() -> Double {
        guard taus != nil else { return gsl_rng_uniform(rng) }
        return withTausState { $0.uniform() }
    }

    /// Uniform on (0, 1): never returns 0, for logarithms.
    @inlinable public func uniformPositive() -> Double { gsl_rng_uniform_pos(rng) }

    /// Uniform on [a, b) (as `gsl_ran_flat`: a(1 − u) + bu).
    @inlinable @inline(__always)
    public func uniform(_ a: Double, _ b: Double) -> Double {
        guard taus != nil else { return gsl_ran_flat(rng, a, b) }
        return withTausState { $0.uniform(a, b) }
    }

    /// Uniform integer in 0..<n (n ≥ 1), as `gsl_rng_uniform_int`: the generator's range cut
    /// into n equal bins, draws past the last whole bin rejected.
    @inlinable @inline(__always)
    public func uniformInt(_ n: Int) -> Int {
        precondition(n >= 1, "uniformInt needs n >= 1")
        guard let taus, n <= 0xffff_ffff else { return Int(gsl_rng_uniform_int(rng, UInt(n))) }
        let scale = UInt32(0xffff_ffff / UInt(n))
        while true {
            let k = Int(Self.tausStep(taus) / scale)
            if k < n { return k }
        }
    }

    /// Exponential with this mean, as `gsl_ran_exponential` (GSL 2.7: −mean · log1p(−u)).
    @inlinable @inline(__always)
    public func exponential(mean: Double) -> Double {
        guard taus != nil else { return gsl_ran_exponential(rng, mean) }
        return -mean * log1p(-uniform())
    }

    /// Normal, as `gsl_ran_gaussian_ziggurat` (its common case inlined on taus2 streams: `Ziggurat`).
    @inlinable @inline(__always)
    public func normal(mean: Double = 0, sd: Double) -> Double {
        if let taus, let ziggurat, let x = Ziggurat.normal(taus: taus, strips: ziggurat, sd: sd) { return mean + x }
        return mean + gsl_ran_gaussian_ziggurat(rng, sd)
    }

    /// Log-normal with parameters of the underlying normal (`zeta` = mean of log, `sigma` = sd of log),
    /// by the polar Box–Muller method as `gsl_ran_lognormal` (the same numbers for taus2 streams).
    @inlinable
    public func lognormal(zeta: Double, sigma: Double) -> Double {
        guard taus != nil else { return gsl_ran_lognormal(rng, zeta, sigma) }
        var u = 0.0, r2 = 0.0
        repeat {
            u = -1 + 2 * uniform()
            let v = -1 + 2 * uniform()
            r2 = u * u + v * v
        } while r2 > 1.0 || r2 == 0
        let normal = u * (-2.0 * log(r2) / r2).squareRoot()
        return exp(normal * sigma + zeta)
    }

    @inlinable public func gamma(shape: Double, scale: Double) -> Double { gsl_ran_gamma(rng, shape, scale) }

    @inlinable public func weibull(scale: Double, shape: Double) -> Double { gsl_ran_weibull(rng, scale, shape) }

    /// Poisson, as `gsl_ran_poisson` for means up to 1e9. GSL's sampler counts in 32 bits: past a
    /// mean of about 4.9e9 its method overflows (wrong counts, and from ~1e10 it never returns),
    /// so larger means draw from the normal approximation N(mean, mean), rounded, whose distance
    /// from the Poisson there is below 1e-4; an infinite mean gives 9e18.
    @inlinable public func poisson(mean: Double) -> Int {
        guard mean > Self.largestGSLPoissonMean else { return Int(gsl_ran_poisson(rng, mean)) }
        let draw = (mean + mean.squareRoot() * normal(sd: 1)).rounded()
        return draw < 9e18 ? Int(draw) : 9_000_000_000_000_000_000
    }

    @usableFromInline static let largestGSLPoissonMean = 1e9

    @inlinable public func binomial(p: Double, n: Int) -> Int { Int(gsl_ran_binomial(rng, p, UInt32(n))) }

    /// True with probability p, as `gsl_ran_bernoulli` (u < p).
    @inlinable @inline(__always)
    public func bernoulli(p: Double) -> Bool {
        guard taus != nil else { return gsl_ran_bernoulli(rng, p) == 1 }
        return uniform() < p
    }

    /// Negative binomial: failures before `n` successes with success probability `p` (n may be fractional).
    @inlinable public func negativeBinomial(p: Double, n: Double) -> Int { Int(gsl_ran_negative_binomial(rng, p, n)) }

    /// Negative binomial by mean and dispersion k (variance = mean + mean²/k), the usual contact-count form.
    public func negativeBinomial(mean: Double, dispersion k: Double) -> Int {
        precondition(mean >= 0 && k > 0, "negative binomial needs mean >= 0 and dispersion > 0")
        if mean == 0 { return 0 }
        return negativeBinomial(p: k / (k + mean), n: k)
    }

    /// Shuffles `array` in place with `gsl_ran_shuffle`.
    public func shuffle<T>(_ array: inout [T]) {
        guard array.count > 1 else { return }
        array.withUnsafeMutableBufferPointer { buffer in
            gsl_ran_shuffle(rng, buffer.baseAddress, buffer.count, MemoryLayout<T>.stride)
        }
    }

    /// `k` elements of `array` chosen without replacement, in their original order (`gsl_ran_choose`).
    public func choose<T>(_ k: Int, from array: [T]) -> [T] {
        precondition(k >= 0 && k <= array.count, "choose needs 0 <= k <= count")
        guard k > 0 else { return [] }
        var indices = Array(0..<array.count)
        var picked = [Int](repeating: 0, count: k)
        indices.withUnsafeMutableBufferPointer { src in
            picked.withUnsafeMutableBufferPointer { dst in
                _ = gsl_ran_choose(rng, dst.baseAddress, k, src.baseAddress, src.count, MemoryLayout<Int>.stride)
            }
        }
        return picked.map { array[$0] }
    }
}

/// Probability densities (GSL's `gsl_ran_*_pdf`).
public enum Densities {
    /// Normal density at `x` for mean 0 and standard deviation `sd` (`gsl_ran_gaussian_pdf`).
    public static func gaussian(_ x: Double, sd: Double) -> Double { gsl_ran_gaussian_pdf(x, sd) }
}

/// Quantile functions (GSL's `gsl_cdf_*`).
public enum Quantiles {
    /// The x with P(X > x) = q for a gamma distribution (`gsl_cdf_gamma_Qinv`).
    public static func gammaUpper(_ q: Double, shape: Double, scale: Double) -> Double {
        returnGSLErrors()
        return gsl_cdf_gamma_Qinv(q, shape, scale)
    }
}
