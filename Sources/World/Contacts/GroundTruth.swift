import HeapModule
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
        var sorted = contacts
        sorted.sort { $0.pair < $1.pair }
        self.init(dayIndex: dayIndex, sortedRuns: [sorted], closeContactSeconds: closeContactSeconds)
    }

    /// Aggregates raw contacts given as runs each sorted by pair (the contact shards' outputs):
    /// `merge` keeping every pair.
    package init(dayIndex: Int, sortedRuns runs: [[Entry]], closeContactSeconds: Int32, threads: Int = 1) {
        self = Self.merge(dayIndex: dayIndex, sortedRuns: runs, closeContactSeconds: closeContactSeconds, threads: threads,
                          keep: .all).day
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

    /// Merges runs each sorted by pair, as it goes: at national scale a day's raw contacts are a
    /// large transient, and joining them into one array to sort again would copy them twice more.
    /// A pair is kept (or not) once its seconds are summed, so a day that keeps only close
    /// contacts never writes the others: the whole day's columns are not built to be filtered.
    ///
    /// On `threads`, the pairs are cut into ranges of their first person: a pair falls in one
    /// range, so ranges merge independently, each written where its entries start, then moved
    /// together. The same day for any number of threads.
    package static func merge(dayIndex: Int, sortedRuns runs: [[Entry]], closeContactSeconds: Int32, threads: Int,
                              keep: Keep) -> Merged {
        let total = runs.reduce(0) { $0 + $1.count }
        let people = Int(runs.compactMap { $0.last.map { $0.pair >> 32 } }.max() ?? 0) + 1
        let ranges = ShardLayout(count: people, threads: threads, shardsPerThread: 4)
        // Where each range starts in each run, and in the runs together.
        let bounds: [[Int]] = (0...ranges.shards).map { s in
            runs.map { run in s == ranges.shards ? run.count : Self.firstIndex(in: run, atLeast: UInt64(ranges.range(ofShard: s).lowerBound) << 32) }
        }
        let starts = bounds.map { $0.reduce(0, +) }
        var counts = [RangeCounts](repeating: RangeCounts(), count: ranges.shards)
        let (phoneOf, closeOnly): ([Int32], Bool) = switch keep {
        case .all: ([], false)
        case .closeContacts(let phones): (phones, true)
        }
        var (pairs, within, seconds) = Self.columns(capacity: total) { out in
            // Buffers, not the arrays: the merge reads a run at every step, and retaining its array
            // each time was ~1% of a 1 M run.
            withBatchColumns(runs) { runs in
                phoneOf.withUnsafeBufferPointer { phoneOf in
                    counts.withUnsafeMutableBufferPointer { buffer in
                        let counts = SharedBuffer(base: buffer), phones = SharedReadBuffer(base: phoneOf)
                        ranges.forEach(threads: threads) { people in
                            let s = ranges.shard(of: people)
                            let parts = runs.base.indices.map { r in UnsafeBufferPointer(rebasing: runs.base[r][bounds[s][r]..<bounds[s + 1][r]]) }
                            counts.base[s] = Self.merge(parts, into: out, at: starts[s], closeContactSeconds: closeContactSeconds,
                                                        closeOnly: closeOnly, phoneOf: phones.base)
                        }
                    }
                }
            }
            // Close the gaps left where pairs repeated or were not kept.
            var at = 0
            for (s, c) in counts.enumerated() {
                out.move(from: starts[s], to: at, count: c.written)
                at += c.written
            }
            return at
        }
        if closeOnly {
            // A few close contacts in room for every raw contact: kept at their own size.
            pairs = pairs.withUnsafeBufferPointer { Array($0) }
            within = within.withUnsafeBufferPointer { Array($0) }
            seconds = seconds.withUnsafeBufferPointer { Array($0) }
        }
        let day = GroundTruthDay(dayIndex: dayIndex, pairs: pairs, secondsWithin: within, secondsTotal: seconds,
                                 closeContactSeconds: closeContactSeconds)
        return Merged(day: day, pairs: counts.reduce(0) { $0 + $1.pairs }, closeContacts: counts.reduce(0) { $0 + $1.close })
    }

    /// What a range's merge met and wrote.
    private struct RangeCounts {
        var pairs = 0, close = 0, written = 0
    }

    /// The first index of `run` whose pair is at least `key`.
    private static func firstIndex(in run: [Entry], atLeast key: UInt64) -> Int {
        var lo = 0, hi = run.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if run[mid].pair < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Merges sorted runs into `out` from `at` on, one entry per pair with its seconds summed,
    /// written unless `closeOnly` and it is not a close contact involving an app phone.
    private static func merge(_ runs: [UnsafeBufferPointer<Entry>], into out: Columns, at: Int, closeContactSeconds: Int32,
                              closeOnly: Bool, phoneOf: UnsafeBufferPointer<Int32>) -> RangeCounts {
        var counts = RangeCounts()
        // The pair being summed (none before the first entry).
        var pair: UInt64 = 0, within: Int32 = 0, total: Int32 = 0, summing = false
        func finish() {
            guard summing else { return }
            counts.pairs += 1
            let close = within >= closeContactSeconds
            if close { counts.close += 1 }
            if !closeOnly || close && Self.involvesAppPhone(pair, phoneOf) {
                out.initialize(at + counts.written, pair: pair, within: within, seconds: total)
                counts.written += 1
            }
        }
        func add(_ c: Entry) {
            if summing && c.pair == pair {
                within += c.within
                total += c.total
            } else {
                finish()
                (pair, within, total, summing) = (c.pair, c.within, c.total, true)
            }
        }
        // The runs' heads in a min-heap by pair. Equal pairs may come from several runs, in any
        // order: their seconds are summed as integers.
        var heads = Heap<RunHead>()
        var next = runs.map { _ in 1 }
        for (r, run) in runs.enumerated() where !run.isEmpty { heads.insert(RunHead(pair: run.first!.pair, run: r)) }
        while let head = heads.popMin() {
            let run = runs[head.run]
            add(run[next[head.run] - 1])
            // Take the run's following entries while none is above another run's head.
            let bound = heads.min?.pair ?? .max
            var i = next[head.run]
            while i < run.endIndex && run[i].pair <= bound {
                add(run[i])
                i += 1
            }
            if i < run.endIndex {
                next[head.run] = i + 1
                heads.insert(RunHead(pair: run[i].pair, run: head.run))
            }
        }
        finish()
        return counts
    }

    /// The day's three columns as buffers, written by parallel workers at disjoint places.
    private struct Columns: @unchecked Sendable {
        let pairs: UnsafeMutableBufferPointer<UInt64>
        let within: UnsafeMutableBufferPointer<Int32>
        let seconds: UnsafeMutableBufferPointer<Int32>

        /// Writes entry `i` (not yet initialized).
        func initialize(_ i: Int, pair: UInt64, within: Int32, seconds: Int32) {
            (self.pairs.baseAddress! + i).initialize(to: pair)
            (self.within.baseAddress! + i).initialize(to: within)
            (self.seconds.baseAddress! + i).initialize(to: seconds)
        }

        /// Moves `count` entries (initialized) from `from` down to `to` (≤ `from`).
        func move(from: Int, to: Int, count: Int) {
            guard from != to, count > 0 else { return }
            UnsafeMutableRawPointer(pairs.baseAddress! + to).copyMemory(from: pairs.baseAddress! + from, byteCount: count * 8)
            UnsafeMutableRawPointer(within.baseAddress! + to).copyMemory(from: within.baseAddress! + from, byteCount: count * 4)
            UnsafeMutableRawPointer(seconds.baseAddress! + to).copyMemory(from: seconds.baseAddress! + from, byteCount: count * 4)
        }
    }

    /// Three columns of up to `capacity` entries, filled by `fill`, which returns how many it filled.
    private static func columns(capacity: Int, _ fill: (Columns) -> Int) -> ([UInt64], [Int32], [Int32]) {
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
    private static func involvesAppPhone(_ pair: UInt64, _ phoneOf: UnsafeBufferPointer<Int32>) -> Bool {
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
