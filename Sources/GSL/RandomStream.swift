import CGSL

/// Which GSL generator backs a stream.
public enum RandomGenerator: Sendable {
    /// Mersenne Twister: the default, for long streams (5 KB of state).
    case mt19937
    /// L'Ecuyer's maximally equidistributed Tausworthe generator: 24 bytes of state, for
    /// millions of small per-entity streams kept for a whole run.
    case taus2
}

/// A GSL random number generator owned by one entity.
///
/// Not thread-safe: give each thread or entity its own stream.
public final class RandomStream {
    @usableFromInline let rng: UnsafeMutablePointer<gsl_rng>
    /// taus2's three state words inside `rng`, when the generator is taus2: its draws are then
    /// made here, inlined, instead of through GSL's function pointers (the same numbers).
    @usableFromInline let taus: UnsafeMutablePointer<UInt>?
    /// GSL's ziggurat strips, for normal draws on taus2 streams without a call into GSL.
    @usableFromInline let ziggurat: UnsafePointer<ZigguratStrip>?
    public private(set) var key: StreamKey
    public let generator: RandomGenerator

    /// MT19937's state in GSL: 624 `unsigned long` words and an `int` cursor.
    private static let mtWords = 624
    private static let mtStateSize = 624 * MemoryLayout<UInt>.size + MemoryLayout<UInt>.size
    /// taus2's state in GSL: three `unsigned long` words.
    private static let tausStateSize = 3 * MemoryLayout<UInt>.size

    public init(_ key: StreamKey, generator: RandomGenerator = .mt19937) {
        returnGSLErrors()
        let type = generator == .mt19937 ? ensim_rng_mt19937() : ensim_rng_taus2()
        guard let rng = gsl_rng_alloc(type) else {
            fatalError("GSL could not allocate a random number generator (out of memory)")
        }
        self.rng = rng
        self.key = key
        self.generator = generator
        taus = generator == .taus2 && gsl_rng_size(rng) == Self.tausStateSize
            ? gsl_rng_state(rng).map { $0.bindMemory(to: UInt.self, capacity: 3) } : nil
        ziggurat = taus != nil ? Ziggurat.strips : nil
        seedState(key)
    }

    public convenience init(seed: UInt64, stream: String, index: UInt64 = 0, generator: RandomGenerator = .mt19937) {
        self.init(StreamKey(seed: seed, stream: stream, index: index), generator: generator)
    }

    deinit { gsl_rng_free(rng) }

    /// Re-seeds this generator for another key, reusing its memory (cheap per-entity streams).
    public func reseed(_ key: StreamKey) {
        self.key = key
        seedState(key)
    }

    /// Re-seeds for `family`'s stream `index` (as `reseed(StreamKey(seed:stream:index:))` but
    /// without hashing the name again); `key` is left unchanged (use the other form if you need it).
    public func reseed(_ family: StreamFamily, index: UInt64) {
        seedState(digest: family.digest(index))
    }

    /// `gsl_rng_set` takes only 32 bits of seed, so millions of entity streams would
    /// collide. Fill the generator state from the 64-bit key digest instead.
    private func seedState(_ key: StreamKey) { seedState(digest: key.digest) }

    private func seedState(digest: UInt64) {
        switch generator {
        case .mt19937: seedMT(digest)
        case .taus2: seedTaus(digest)
        }
    }

    /// Whole 19,937-bit state from the digest (as MT's init_by_array does), forcing a fresh twist on the first draw.
    private func seedMT(_ digest: UInt64) {
        guard gsl_rng_size(rng) == Self.mtStateSize, let state = gsl_rng_state(rng) else {
            gsl_rng_set(rng, UInt(truncatingIfNeeded: digest))
            return
        }
        let words = state.bindMemory(to: UInt.self, capacity: Self.mtWords + 1)
        var expander = digest
        for i in 0..<Self.mtWords {
            words[i] = UInt(SeedMixer.next(&expander) & 0xffff_ffff)
        }
        words[0] |= 0x8000_0000  // MT requires a non-zero top bit somewhere; this guarantees it
        let cursor = UnsafeMutableRawPointer(state).advanced(by: Self.mtWords * MemoryLayout<UInt>.size)
        cursor.storeBytes(of: Int32(Self.mtWords), as: Int32.self)
    }

    /// Three 32-bit words from the digest, respecting taus2's lower bounds (s1 > 1, s2 > 7,
    /// s3 > 15), then six discarded outputs as GSL's own seeding does.
    private func seedTaus(_ digest: UInt64) {
        // `taus` is the state found at init: no call into GSL per reseed (millions a day).
        guard let words = taus else {
            gsl_rng_set(rng, UInt(truncatingIfNeeded: digest))
            return
        }
        var expander = digest
        func word(_ minimum: UInt) -> UInt {
            let w = UInt(SeedMixer.next(&expander) & 0xffff_ffff)
            return w < minimum ? w + minimum : w
        }
        // Seeded and warmed up in registers, then stored once (millions of reseeds a day).
        var state = TausState(s0: word(2), s1: word(8), s2: word(16))
        for _ in 0..<6 { _ = state.next32() }
        (words[0], words[1], words[2]) = (state.s0, state.s1, state.s2)
    }

    /// taus2's three state words: an entity can park its stream between uses and resume it
    /// exactly where it stopped, without a stream object of its own.
    public var tausWords: (UInt32, UInt32, UInt32) {
        get {
            guard let taus else { preconditionFailure("tausWords of a stream that is not taus2") }
            return (UInt32(truncatingIfNeeded: taus[0]), UInt32(truncatingIfNeeded: taus[1]), UInt32(truncatingIfNeeded: taus[2]))
        }
        set {
            guard let taus else { preconditionFailure("tausWords of a stream that is not taus2") }
            (taus[0], taus[1], taus[2]) = (UInt(newValue.0), UInt(newValue.1), UInt(newValue.2))
        }
    }

    /// Raw 32-bit output, for key material (TEKs) that must be reproducible.
    @inlinable @inline(__always)
    public func next32() -> UInt32 {
        guard let taus else { return UInt32(truncatingIfNeeded: gsl_rng_get(rng)) }
        return Self.tausStep(taus)
    }

    /// One step of taus2 on the state words in GSL's generator.
    @inlinable @inline(__always)
    static func tausStep(_ s: UnsafeMutablePointer<UInt>) -> UInt32 {
        var state = TausState(s0: s[0], s1: s[1], s2: s[2])
        defer { (s[0], s[1], s[2]) = (state.s0, state.s1, state.s2) }
        return state.next32()
    }

    /// Runs `body` on taus2's state copied into a local `TausState` and stores it back after: a
    /// loop of many draws then keeps the state in registers instead of loading and storing it
    /// through the stream at every draw (the same numbers as the stream's own draws).
    @inlinable @inline(__always)
    public func withTausState<R>(_ body: (inout TausState) -> R) -> R {
        guard let taus else { preconditionFailure("withTausState on a stream that is not taus2") }
        var state = TausState(s0: taus[0], s1: taus[1], s2: taus[2])
        defer { (taus[0], taus[1], taus[2]) = (state.s0, state.s1, state.s2) }
        return body(&state)
    }

    /// Fills `count` bytes from the generator.
    public func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(count)
        while out.count < count {
            var word = next32()
            for _ in 0..<4 where out.count < count {
                out.append(UInt8(word & 0xff))
                word >>= 8
            }
        }
        return out
    }
}

/// taus2's three state words lent by `RandomStream.withTausState`, with the stream's uniform draws.
public struct TausState {
    @usableFromInline var s0: UInt, s1: UInt, s2: UInt

    @inlinable init(s0: UInt, s1: UInt, s2: UInt) { (self.s0, self.s1, self.s2) = (s0, s1, s2) }

    /// One step of L'Ecuyer's three-component Tausworthe generator ("Maximally equidistributed
    /// combined Tausworthe generators", Math. Comp. 65, 1996; GSL's taus2), on GSL's state words.
    @inlinable @inline(__always)
    public mutating func next32() -> UInt32 {
        @inline(__always) func component(_ z: UInt, _ q: UInt, _ shift: UInt, _ mask: UInt, _ k: UInt) -> UInt {
            (((z & mask) << k) & 0xffff_ffff) ^ ((((z << q) & 0xffff_ffff) ^ z) >> shift)
        }
        s0 = component(s0, 13, 19, 0xffff_fffe, 12)
        s1 = component(s1, 2, 25, 0xffff_fff8, 4)
        s2 = component(s2, 3, 11, 0xffff_fff0, 17)
        return UInt32(truncatingIfNeeded: s0 ^ s1 ^ s2)
    }

    /// Uniform on [0, 1), as `gsl_rng_uniform` on taus2: the word over 2³².
    @inlinable @inline(__always)
    public mutating func uniform() -> Double { Double(next32()) / 4_294_967_296.0 }

    /// Uniform on [a, b), as `gsl_ran_flat`: a(1 − u) + bu.
    @inlinable @inline(__always)
    public mutating func uniform(_ a: Double, _ b: Double) -> Double {
        let u = uniform()
        return a * (1 - u) + b * u
    }
}
