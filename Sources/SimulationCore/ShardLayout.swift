/// Contiguous shards of `0..<count`, so per-shard results can be slotted by shard index and
/// merged in order (identical for any thread count). By default the layout of `forEachShard`
/// (one shard per worker; some workers get none when `count` is small).
package struct ShardLayout {
    package let count: Int
    /// Shard s is `bounds[s]..<bounds[s + 1]`.
    private let bounds: [Int]
    package var shards: Int { bounds.count - 1 }

    /// `shardsPerThread` > 1 cuts finer shards that `forEach` hands out to whichever worker is
    /// free, so uneven shards (phones hear very different numbers of encounters) or a core the
    /// machine is slow to give back do not leave the other workers idle.
    package init(count: Int, threads: Int, shardsPerThread: Int = 1) {
        self.count = count
        let workers = max(1, min(threads, count))
        let target = workers == 1 ? 1 : workers * max(1, shardsPerThread)
        let per = max(1, (count + target - 1) / target)
        let shards = count == 0 ? 1 : (count + per - 1) / per
        bounds = (0...shards).map { min(count, $0 * per) }
    }

    /// Shards that shrink as the work runs out (guided self-scheduling, Polychronopoulos & Kuck
    /// 1987): each is a (2 · workers)-th of what is left, down to a `finest`-per-thread share of
    /// `count`. Few shards, so few fixed costs, yet the last ones are small: whichever worker ends
    /// last waits only for a small shard.
    package init(tapering count: Int, threads: Int, finest shardsPerThread: Int) {
        self.count = count
        let workers = max(1, min(threads, count))
        guard workers > 1 else {
            bounds = [0, count]
            return
        }
        let smallest = max(1, count / (workers * max(1, shardsPerThread)))
        var bounds = [0]
        while bounds[bounds.count - 1] < count {
            let left = count - bounds[bounds.count - 1]
            bounds.append(bounds[bounds.count - 1] + min(left, max(smallest, left / (2 * workers))))
        }
        self.bounds = bounds
    }

    /// The shard whose range is `range`.
    package func shard(of range: Range<Int>) -> Int {
        // The last shard starting at or before the range.
        var lo = 0, hi = shards - 1
        while lo < hi {
            let mid = (lo + hi + 1) >> 1
            if bounds[mid] <= range.lowerBound { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    package func range(ofShard s: Int) -> Range<Int> { bounds[s]..<bounds[s + 1] }

    /// Runs `body` on every shard with at most `threads` at once, shards taken in order by
    /// whichever worker is free.
    package func forEach(threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
        forEachItem(count: shards, threads: threads) { s in
            let r = range(ofShard: s)
            if !r.isEmpty { body(r) }
        }
    }
}
