/// A small direct-mapped cache of values that are pure functions of their key for one day: a
/// phone's scan schedule, a sender's advert of one interval (its RPI rotations have their own
/// cache, `RotationCache`, which holds them without an array each).
///
/// The radio needs them for both directions of every contact. An initiator's contacts come one
/// after the other, so even a small cache hits most of the time.
struct DayCache<Value> {
    private var keys: [UInt64]
    private var values: [Value?]
    private let slots: CacheSlots

    /// - Parameter slots: a power of two.
    init(slots: Int = 1024) {
        self.slots = CacheSlots(count: slots)
        keys = [UInt64](repeating: .max, count: slots)
        values = [Value?](repeating: nil, count: slots)
    }

    /// The cached value of `key`, if its slot holds it. On a miss the caller makes the value and
    /// `store`s it (no closure: making it often reads what holds the cache).
    @inline(__always)
    func cached(key: UInt64) -> Value? {
        let slot = self.slot(key)
        return keys[slot] == key ? values[slot] : nil
    }

    /// Caches `value` in `key`'s slot, evicting another.
    @inline(__always)
    mutating func store(_ value: Value, key: UInt64) {
        let slot = self.slot(key)
        keys[slot] = key
        values[slot] = value
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int { slots.slot(of: key) }
}

/// The slots of a direct-mapped cache: a key's slot is the top bits of a Fibonacci hash of it.
struct CacheSlots {
    private let shift: UInt64

    /// - Parameter count: a power of two.
    init(count: Int) {
        precondition(count > 1 && count & (count - 1) == 0, "slots must be a power of two")
        shift = UInt64(64 - count.trailingZeroBitCount)
    }

    @inline(__always)
    func slot(of key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9e37_79b9_7f4a_7c15) >> shift) }
}
