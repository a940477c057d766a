import CGSL

/// A GSL random number generator (Mersenne Twister MT19937) owned by one entity.
///
/// Not thread-safe: give each thread or entity its own stream.
public final class RandomStream {
    @usableFromInline let rng: UnsafeMutablePointer<gsl_rng>
    public private(set) var key: StreamKey

    /// MT19937's state in GSL: 624 `unsigned long` words and an `int` cursor.
    private static let mtWords = 624
    private static let mtStateSize = 624 * MemoryLayout<UInt>.size + MemoryLayout<UInt>.size

    public init(_ key: StreamKey) {
        ensim_gsl_disable_abort()
        guard let rng = gsl_rng_alloc(ensim_rng_mt19937()) else {
            fatalError("GSL could not allocate a random number generator (out of memory)")
        }
        self.rng = rng
        self.key = key
        seedState(key)
    }

    public convenience init(seed: UInt64, stream: String, index: UInt64 = 0) {
        self.init(StreamKey(seed: seed, stream: stream, index: index))
    }

    deinit { gsl_rng_free(rng) }

    /// Re-seeds this generator for another key, reusing its memory (cheap per-entity streams).
    public func reseed(_ key: StreamKey) {
        self.key = key
        seedState(key)
    }

    /// `gsl_rng_set` takes only 32 bits of seed for MT19937, so millions of entity streams
    /// would collide. Fill the whole 19,937-bit state from the 64-bit key digest instead
    /// (as MT's init_by_array does), forcing a fresh twist on the first draw.
    private func seedState(_ key: StreamKey) {
        let digest = key.digest
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

    /// Raw 32-bit output, for key material (TEKs) that must be reproducible.
    @inlinable public func next32() -> UInt32 { UInt32(truncatingIfNeeded: gsl_rng_get(rng)) }

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
