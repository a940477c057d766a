import Dispatch
import Synchronization

/// Contiguous shards of `0..<count`, so per-shard results can be slotted by shard index and
/// merged in order (identical for any thread count). By default the layout of `forEachShard`
/// (one shard per worker; some workers get none when `count` is small).
package struct ShardLayout {
    package let count: Int
    package let per: Int
    package let shards: Int

    /// `shardsPerThread` > 1 cuts finer shards that `forEach` hands out to whichever worker is
    /// free, so uneven shards (phones hear very different numbers of encounters) or a core the
    /// machine is slow to give back do not leave the other workers idle.
    package init(count: Int, threads: Int, shardsPerThread: Int = 1) {
        self.count = count
        let workers = max(1, min(threads, count))
        let target = workers == 1 ? 1 : workers * max(1, shardsPerThread)
        per = max(1, (count + target - 1) / target)
        shards = count == 0 ? 1 : (count + per - 1) / per
    }

    package func shard(of range: Range<Int>) -> Int { range.lowerBound / per }

    package func range(ofShard s: Int) -> Range<Int> { (s * per)..<min(count, (s + 1) * per) }

    /// Runs `body` on every shard with at most `threads` at once, shards taken in order by
    /// whichever worker is free.
    package func forEach(threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let workers = max(1, min(threads, shards))
        if workers == 1 {
            for s in 0..<shards where !range(ofShard: s).isEmpty { body(range(ofShard: s)) }
            return
        }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let s = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard s < shards else { return }
                let r = range(ofShard: s)
                if !r.isEmpty { body(r) }
            }
        }
    }
}
