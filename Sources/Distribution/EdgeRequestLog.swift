/// What the CDN's edges cache: an index (CWA's date index, Immuni's and P6's `oldest/newest`
/// index), an hour index of one day (CWA), or a package. Packages never change; indexes do.
package enum CachedObjectKind: Int, CaseIterable, Sendable {
    case rootIndex, hourIndex, package

    /// 0 = index files (root and hour indexes), 1 = packages: the two classes the report splits.
    @inline(__always) package var reportClass: Int { self == .package ? 1 : 0 }
}

/// One shard's record of the requests its clients' edges served during one `advance`: a bit per
/// (object, edge, second). Bits from all shards are OR-ed before the origin is simulated, so the
/// origin load cannot depend on how clients are split into shards or threads. Arrays, not
/// dictionaries: an object is (kind, number), its edges are consecutive slots.
package struct EdgeRequestLog {
    package let edges: Int
    /// The window's first second (since the model's start) and its length in 64-bit words.
    package private(set) var windowStart = 0
    package private(set) var words = 0
    /// offsets[kind][number * edges + edge]: the slot's first word in `bits`; -1 = no request in the window.
    package private(set) var offsets: [[Int]] = CachedObjectKind.allCases.map { _ in [] }
    package private(set) var bits: [UInt64] = []
    /// kind + 3 · (number · edges + edge) of every slot with a request, in first-request order.
    package private(set) var touched: [Int] = []
    /// Requests the edges answered, by hour since the start: hour · 2 + report class.
    package private(set) var requestsByHour: [Int] = []

    package init(edges: Int) { self.edges = edges }

    /// Forgets the last window's bits (keeping the storage) and starts `window` (seconds since the start).
    package mutating func reset(window: Range<Int>) {
        for key in touched { offsets[key % 3][key / 3] = -1 }
        touched.removeAll(keepingCapacity: true)
        bits.removeAll(keepingCapacity: true)
        windowStart = window.lowerBound
        words = (window.count + 63) / 64
    }

    /// A request for object (kind, number) answered by `edge` at `second` since the start.
    @inline(__always)
    package mutating func record(_ kind: CachedObjectKind, number: Int, edge: Int, second: Int) {
        let k = kind.rawValue, slot = number * edges + edge
        if slot >= offsets[k].count {
            offsets[k].append(contentsOf: repeatElement(-1, count: slot + 1 - offsets[k].count + 64 * edges))
        }
        var o = offsets[k][slot]
        if o < 0 {
            o = bits.count
            bits.append(contentsOf: repeatElement(0, count: words))
            offsets[k][slot] = o
            touched.append(k + 3 * slot)
        }
        let s = second - windowStart
        bits[o + s >> 6] |= 1 << UInt64(s & 63)
        let h = (second / 3_600) * 2 + kind.reportClass
        if h >= requestsByHour.count { requestsByHour.append(contentsOf: repeatElement(0, count: h + 1 - requestsByHour.count + 48)) }
        requestsByHour[h] &+= 1
    }

    /// The first word of a slot's bits, nil when it had no request in the window.
    package func offset(kind: Int, slot: Int) -> Int? {
        slot < offsets[kind].count && offsets[kind][slot] >= 0 ? offsets[kind][slot] : nil
    }
}

/// The edge a client's requests go to: a fixed hash of its index (a client keeps its edge, as
/// DNS-based CDN routing keeps a resolver's clients on one point of presence).
@inline(__always)
package func edgeOfClient(_ c: Int, edges: Int) -> Int {
    var x = UInt64(truncatingIfNeeded: c) &+ 0x9E37_79B9_7F4A_7C15
    x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
    x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
    x ^= x >> 31
    return Int(x % UInt64(edges))
}
