import HeapModule

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
        var sorted = contacts
        sorted.sort { $0.pair < $1.pair }
        self.init(dayIndex: dayIndex, sortedRuns: [sorted], closeContactSeconds: closeContactSeconds)
    }

    /// Aggregates raw contacts given as runs each sorted by pair (the contact shards' outputs),
    /// merging the runs as it goes: at national scale a day's raw contacts are a large transient,
    /// and joining them into one array to sort again would copy them twice more.
    package init(dayIndex: Int, sortedRuns runs: [[Entry]], closeContactSeconds: Int32) {
        self.dayIndex = dayIndex
        self.closeContactSeconds = closeContactSeconds
        let total = runs.reduce(0) { $0 + $1.count }
        var pairs: [UInt64] = [], within: [Int32] = [], seconds: [Int32] = []
        pairs.reserveCapacity(total)
        within.reserveCapacity(total)
        seconds.reserveCapacity(total)
        func add(_ c: Entry) {
            if pairs.last == c.pair {
                within[within.count - 1] += c.within
                seconds[seconds.count - 1] += c.total
            } else {
                pairs.append(c.pair)
                within.append(c.within)
                seconds.append(c.total)
            }
        }
        // The runs' heads in a min-heap by pair. Equal pairs may come from several runs, in any
        // order: their seconds are summed as integers.
        var heads = Heap<RunHead>()
        var next = [Int](repeating: 1, count: runs.count)
        for (r, run) in runs.enumerated() where !run.isEmpty { heads.insert(RunHead(pair: run[0].pair, run: r)) }
        while let head = heads.popMin() {
            let run = runs[head.run]
            add(run[next[head.run] - 1])
            // Take the run's following entries while none is above another run's head.
            let bound = heads.min?.pair ?? .max
            var i = next[head.run]
            while i < run.count && run[i].pair <= bound {
                add(run[i])
                i += 1
            }
            if i < run.count {
                next[head.run] = i + 1
                heads.insert(RunHead(pair: run[i].pair, run: head.run))
            }
        }
        self.pairs = pairs
        secondsWithin = within
        secondsTotal = seconds
    }

    private struct RunHead: Comparable {
        var pair: UInt64
        var run: Int
        static func < (a: Self, b: Self) -> Bool { (a.pair, a.run) < (b.pair, b.run) }
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
    /// asks only whether app phones were exposed.
    public func closeContactsOnly(involving phoneOf: [Int32]?) -> GroundTruthDay {
        let keep = secondsWithin.indices.filter { i in
            guard secondsWithin[i] >= closeContactSeconds else { return false }
            guard let phoneOf else { return true }
            return phoneOf[Int(pairs[i] >> 32)] >= 0 || phoneOf[Int(pairs[i] & 0xffff_ffff)] >= 0
        }
        return GroundTruthDay(dayIndex: dayIndex, pairs: keep.map { pairs[$0] }, secondsWithin: keep.map { secondsWithin[$0] },
                              secondsTotal: keep.map { secondsTotal[$0] }, closeContactSeconds: closeContactSeconds)
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
