import SimulationCore

/// Ground truth of one day: every pair of people who met (app users or not), with the time
/// they spent within the close-contact distance and in total.
public struct GroundTruthDay: Sendable {
    public let dayIndex: Int
    /// Pair keys `a << 32 | b` with a < b, ascending.
    public let pairs: [UInt64]
    public let secondsWithin: [Int32]
    public let secondsTotal: [Int32]
    public let closeContactSeconds: Int32

    /// One raw contact: the pair, seconds within the close-contact distance, seconds in total.
    package struct Entry: Sendable {
        package var pair: UInt64
        package var within: Int32
        package var total: Int32
    }

    /// Aggregates raw contacts (unsorted, possibly several per pair).
    package init(dayIndex: Int, contacts: consuming [Entry], closeContactSeconds: Int32) {
        self.init(dayIndex: dayIndex, runs: [contacts], closeContactSeconds: closeContactSeconds)
    }

    /// Aggregates raw contacts given as runs in any order (the contact shards' outputs): `merge`
    /// keeping every pair. `rangeShift` is a test hook (see `PairRanges`).
    package init(dayIndex: Int, runs: [[Entry]], closeContactSeconds: Int32, threads: Int = 1, rangeShift: Int? = nil) {
        let people = Int(runs.joined().map { $0.pair & 0xffff_ffff }.max() ?? 0) + 1
        let ranges = PairRanges(people: people, shift: rangeShift)
        self = Self.merge(dayIndex: dayIndex, runs: runs.map { Self.partition($0, by: ranges) }, ranges: ranges,
                          closeContactSeconds: closeContactSeconds, threads: threads, keep: .all).day
    }

    /// Which of a day's pairs `merge` keeps.
    package enum Keep {
        case all
        /// As `closeContactsOnly(involving:)`: close contacts where at least one person has an app phone.
        case closeContacts(involving: [Int32])
    }

    /// A merged day: the pairs kept, and how many pairs met and were close contacts, kept or not.
    package struct Merged {
        package let day: GroundTruthDay
        package let pairs: Int
        package let closeContacts: Int
    }

    /// The day's three columns as buffers, written by parallel workers at disjoint places.
    struct Columns: @unchecked Sendable {
        let pairs: UnsafeMutableBufferPointer<UInt64>
        let within: UnsafeMutableBufferPointer<Int32>
        let seconds: UnsafeMutableBufferPointer<Int32>

        /// Writes entry `i` (not yet initialized).
        func initialize(_ i: Int, pair: UInt64, within: Int32, seconds: Int32) {
            (self.pairs.baseAddress! + i).initialize(to: pair)
            (self.within.baseAddress! + i).initialize(to: within)
            (self.seconds.baseAddress! + i).initialize(to: seconds)
        }
    }

    /// Three columns of up to `capacity` entries, filled by `fill`, which returns how many it filled.
    static func columns(capacity: Int, _ fill: (Columns) -> Int) -> ([UInt64], [Int32], [Int32]) {
        var within: [Int32] = [], seconds: [Int32] = []
        var count = 0
        let pairs = [UInt64](unsafeUninitializedCapacity: capacity) { p, pairsCount in
            within = [Int32](unsafeUninitializedCapacity: capacity) { w, withinCount in
                seconds = [Int32](unsafeUninitializedCapacity: capacity) { t, secondsCount in
                    count = fill(Columns(pairs: p, within: w, seconds: t))
                    secondsCount = count
                }
                withinCount = count
            }
            pairsCount = count
        }
        return (pairs, within, seconds)
    }

    package init(dayIndex: Int, pairs: [UInt64], secondsWithin: [Int32], secondsTotal: [Int32], closeContactSeconds: Int32) {
        self.dayIndex = dayIndex
        self.pairs = pairs
        self.secondsWithin = secondsWithin
        self.secondsTotal = secondsTotal
        self.closeContactSeconds = closeContactSeconds
    }

    /// The same day restricted to its close contacts (what accuracy scoring needs, a fraction of the size).
    public func closeContactsOnly() -> GroundTruthDay { closeContactsOnly(involving: nil) }

    /// The close contacts where at least one person has an app phone (`phoneOf[p] >= 0`): scoring
    /// asks only whether app phones were exposed. Filtered in chunks on `threads`, kept in order.
    public func closeContactsOnly(involving phoneOf: [Int32]?, threads: Int = 1) -> GroundTruthDay {
        let (pairs, within, closeContactSeconds) = (self.pairs, secondsWithin, self.closeContactSeconds)
        let keeps: @Sendable (Int) -> Bool = { i in
            guard within[i] >= closeContactSeconds else { return false }
            guard let phoneOf else { return true }
            return phoneOf.withUnsafeBufferPointer { Self.involvesAppPhone(pairs[i], $0) }
        }
        let chunks = ShardLayout(count: pairs.count, threads: threads, shardsPerThread: 4)
        var kept = [Int](repeating: 0, count: chunks.shards)
        kept.withUnsafeMutableBufferPointer { buffer in
            let counts = SharedBuffer(base: buffer)
            chunks.forEach(threads: threads) { range in counts.base[chunks.shard(of: range)] = range.count(where: keeps) }
        }
        let starts = kept.reduce(into: [0]) { $0.append($0.last! + $1) }
        let total = self.secondsTotal
        let columns = Self.columns(capacity: starts.last!) { out in
            chunks.forEach(threads: threads) { range in
                var at = starts[chunks.shard(of: range)]
                for i in range where keeps(i) {
                    out.initialize(at, pair: pairs[i], within: within[i], seconds: total[i])
                    at += 1
                }
            }
            return starts.last!
        }
        return GroundTruthDay(dayIndex: dayIndex, pairs: columns.0, secondsWithin: columns.1, secondsTotal: columns.2,
                              closeContactSeconds: closeContactSeconds)
    }

    /// Whether either person of `pair` has an app phone (`phoneOf[p] >= 0`).
    @inline(__always)
    static func involvesAppPhone(_ pair: UInt64, _ phoneOf: UnsafeBufferPointer<Int32>) -> Bool {
        phoneOf[Int(pair >> 32)] >= 0 || phoneOf[Int(pair & 0xffff_ffff)] >= 0
    }

    package static func key(_ a: Int32, _ b: Int32) -> UInt64 {
        let (lo, hi) = a < b ? (a, b) : (b, a)
        return UInt64(UInt32(lo)) << 32 | UInt64(UInt32(hi))
    }

    /// Bytes held, for the memory report.
    public var bytes: Int { pairs.count * 16 }

    /// Pairs that meet the close-contact rule (cumulative time within the distance on this day).
    public var closeContacts: Int { secondsWithin.lazy.filter { $0 >= self.closeContactSeconds }.count }

    public func isCloseContact(_ a: Int32, _ b: Int32) -> Bool {
        let k = Self.key(a, b)
        var lo = 0, hi = pairs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if pairs[mid] < k { lo = mid + 1 } else { hi = mid }
        }
        return lo < pairs.count && pairs[lo] == k && secondsWithin[lo] >= closeContactSeconds
    }
}
