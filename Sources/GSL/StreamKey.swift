/// Names one deterministic random stream: (scenario seed, stream name, entity index).
///
/// Each entity (a phone, a client, an index case) draws from its own stream, so its
/// draws never depend on event interleaving, on other entities or on thread count.
public struct StreamKey: Hashable, Sendable {
    public let seed: UInt64
    public let stream: String
    public let index: UInt64

    public init(seed: UInt64, stream: String, index: UInt64 = 0) {
        self.seed = seed
        self.stream = stream
        self.index = index
    }

    /// 64-bit digest of the key: FNV-1a over the name, then SplitMix64 finalisers
    /// mixing in seed and index, so that neighbouring indices give unrelated values.
    public var digest: UInt64 { StreamFamily(seed: seed, stream: stream).digest(index) }
}

/// A stream name under a seed, hashed once: `digest(i)` equals the digest of
/// `StreamKey(seed:stream:index: i)`. For hot loops that reseed per entity and event.
public struct StreamFamily: Sendable, Hashable {
    @usableFromInline let base: UInt64

    public init(seed: UInt64, stream: String) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in stream.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        base = SeedMixer.mix(h ^ SeedMixer.mix(seed))
    }

    @inlinable public func digest(_ index: UInt64) -> UInt64 { SeedMixer.mix(base ^ index) }
}

/// SplitMix64 steps, used only to expand stream keys into generator seed words,
/// never to draw simulation randomness (that is GSL's job).
@usableFromInline enum SeedMixer {
    @inlinable @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// Next word of the SplitMix64 sequence started at `state`.
    @inlinable @inline(__always)
    static func next(_ state: inout UInt64) -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        return mix(state)
    }
}
