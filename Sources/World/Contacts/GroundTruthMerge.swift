import SimulationCore

extension GroundTruthDay {
    /// The ranges of first person that a day's raw contacts are cut into. A pair falls in one
    /// range, so each range is sorted and summed on its own (in parallel, and small enough to
    /// sort in cache), and the ranges one after another are the day in pair order. Fixed by the
    /// population alone, so the day is the same on any number of threads.
    package struct PairRanges: Sendable {
        /// A pair's range is its first person >> `shift`.
        package let shift: Int
        package let count: Int

        /// Ranges of 1,024 people, or of more so that there are at most 1,024 of them.
        /// - Parameter shift: test hook (narrow ranges for a few people).
        package init(people: Int, shift: Int? = nil) {
            let bits = Int.bitWidth - max(0, people - 1).leadingZeroBitCount
            self.shift = shift ?? max(10, bits - 10)
            count = (max(0, people - 1) >> self.shift) + 1
        }

        @inline(__always)
        package func range(of pair: UInt64) -> Int { Int(truncatingIfNeeded: pair >> 32) >> shift }
    }

    /// A shard's raw contacts grouped by range (in no order within a range).
    package struct PartitionedRun: Sendable {
        package var entries: [Entry]
        /// Range r is `entries[starts[r]..<starts[r + 1]]`.
        package var starts: [Int]
    }

    /// Groups raw contacts by range: a counting sort on the range, one read and one write.
    package static func partition(_ entries: consuming [Entry], by ranges: PairRanges) -> PartitionedRun {
        let n = entries.count
        var starts = [Int](repeating: 0, count: ranges.count + 1)
        guard ranges.count > 1 else {
            starts[1] = n
            return PartitionedRun(entries: entries, starts: starts)
        }
        let grouped = entries.withUnsafeBufferPointer { from in
            starts.withUnsafeMutableBufferPointer { starts in
                for e in from { starts[ranges.range(of: e.pair) + 1] &+= 1 }
                for r in 0..<ranges.count { starts[r + 1] &+= starts[r] }
                var next = Array(starts.dropLast())
                return [Entry](unsafeUninitializedCapacity: n) { out, initialized in
                    next.withUnsafeMutableBufferPointer { next in
                        for e in from {
                            let r = ranges.range(of: e.pair)
                            (out.baseAddress! + next[r]).initialize(to: e)
                            next[r] &+= 1
                        }
                    }
                    initialized = n
                }
            }
        }
        return PartitionedRun(entries: grouped, starts: starts)
    }

    /// Merges the shards' runs into the day: one entry per pair with its seconds summed, kept as
    /// `keep` says, in pair order. Each range gathers its part of every run, sorts it and sums it
    /// in place; once every range has, the runs are freed and the ranges written one after
    /// another into the day's columns. A day that keeps only close contacts never writes the others,
    /// and each range keeps only what it wrote, so at most the runs and the ranges being sorted
    /// are held at once beyond what the day keeps.
    package static func merge(dayIndex: Int, runs: consuming [PartitionedRun], ranges: PairRanges, closeContactSeconds: Int32,
                              threads: Int, keep: Keep) -> Merged {
        let (phoneOf, closeOnly): ([Int32], Bool) = switch keep {
        case .all: ([], false)
        case .closeContacts(let phones): (phones, true)
        }
        let summed = UnsafeMutableBufferPointer<SummedRange>.allocate(capacity: ranges.count)
        defer { summed.deallocate() }
        summed.initialize(repeating: SummedRange())
        do {
            // Freed at the end of this block, once every range has its part.
            let runs = consume runs
            let width = ranges.count + 1
            let starts = runs.flatMap(\.starts)
            // Buffers, not the arrays: retaining an array shared by the workers at every read
            // makes its count a contended cache line.
            withBatchColumns(runs.map(\.entries)) { entries in
                starts.withUnsafeBufferPointer { startsBuffer in
                    phoneOf.withUnsafeBufferPointer { phoneOfBuffer in
                        let starts = SharedReadBuffer(base: startsBuffer), phones = SharedReadBuffer(base: phoneOfBuffer)
                        let out = SharedBuffer(base: summed)
                        forEachItem(count: ranges.count, threads: threads) { r in
                            let parts = entries.base.indices.map { s in starts.base[s * width + r]..<starts.base[s * width + r + 1] }
                            let n = parts.reduce(0) { $0 + $1.count }
                            guard n > 0 else { return }
                            let range = UnsafeMutableBufferPointer<Entry>.allocate(capacity: n)
                            var at = 0
                            for (s, part) in parts.enumerated() where !part.isEmpty {
                                _ = UnsafeMutableBufferPointer(rebasing: range[at..<(at + part.count)])
                                    .initialize(fromContentsOf: UnsafeBufferPointer(rebasing: entries.base[s][part]))
                                at += part.count
                            }
                            sortByPair(range)
                            let counts = sum(range, closeContactSeconds: closeContactSeconds, closeOnly: closeOnly, phoneOf: phones.base)
                            out.base[r] = SummedRange(entries: shrunk(range, to: counts.written), counts: counts)
                        }
                    }
                }
            }
        }
        let offsets = summed.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.counts.written) }
        let columns = Self.columns(capacity: offsets[ranges.count]) { columns in
            let done = SharedReadBuffer(base: UnsafeBufferPointer(summed))
            forEachItem(count: done.base.count, threads: threads) { r in
                let range = done.base[r]
                for i in 0..<range.counts.written {
                    let e = range.entries[i]
                    columns.initialize(offsets[r] + i, pair: e.pair, within: e.within, seconds: e.total)
                }
                range.entries.deallocate()
            }
            return offsets[ranges.count]
        }
        let day = GroundTruthDay(dayIndex: dayIndex, pairs: columns.0, secondsWithin: columns.1, secondsTotal: columns.2,
                                 closeContactSeconds: closeContactSeconds)
        return Merged(day: day, pairs: summed.reduce(0) { $0 + $1.counts.pairs },
                      closeContacts: summed.reduce(0) { $0 + $1.counts.close })
    }

    /// `buffer`'s first `count` entries in a buffer of their own when that frees at least half of
    /// it: a day that keeps only close contacts keeps a few of each range's raw contacts, and all
    /// of them held until the day's columns are written were 0.56 GB more at the peak of 10 M × 28.
    private static func shrunk(_ buffer: UnsafeMutableBufferPointer<Entry>, to count: Int) -> UnsafeMutableBufferPointer<Entry> {
        guard count <= buffer.count / 2 else { return buffer }
        let kept = UnsafeMutableBufferPointer<Entry>.allocate(capacity: count)
        _ = kept.initialize(fromContentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        buffer.deallocate()
        return kept
    }

    /// A range's entries, sorted and summed in place, and what its sum met and wrote.
    private struct SummedRange {
        var entries = UnsafeMutableBufferPointer<Entry>(start: nil, count: 0)
        var counts = RangeCounts()
    }

    /// What a range's sum met and wrote.
    private struct RangeCounts {
        var pairs = 0, close = 0, written = 0
    }

    /// Sums the seconds of each pair of `sorted` into one entry, moved down to the front unless
    /// `closeOnly` and it is not a close contact involving an app phone.
    private static func sum(_ sorted: UnsafeMutableBufferPointer<Entry>, closeContactSeconds: Int32, closeOnly: Bool,
                            phoneOf: UnsafeBufferPointer<Int32>) -> RangeCounts {
        var counts = RangeCounts()
        var i = 0
        while i < sorted.count {
            var e = sorted[i]
            i += 1
            while i < sorted.count && sorted[i].pair == e.pair {
                e.within += sorted[i].within
                e.total += sorted[i].total
                i += 1
            }
            counts.pairs += 1
            let close = e.within >= closeContactSeconds
            if close { counts.close += 1 }
            if !closeOnly || close && involvesAppPhone(e.pair, phoneOf) {
                sorted[counts.written] = e
                counts.written += 1
            }
        }
        return counts
    }
}
