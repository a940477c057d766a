import Dispatch

/// Runs `body` over `count` items split into contiguous shards, one per worker, and
/// waits. Each shard writes only its own items, so the result never depends on `threads`.
func forEachShard(count: Int, threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
    let workers = max(1, min(threads, count))
    if workers == 1 {
        body(0..<count)
        return
    }
    let per = (count + workers - 1) / workers
    DispatchQueue.concurrentPerform(iterations: workers) { w in
        let lower = w * per, upper = min(count, lower + per)
        if lower < upper { body(lower..<upper) }
    }
}

/// A buffer that parallel shards write into at disjoint indices.
struct SharedBuffer<Element>: @unchecked Sendable {
    let base: UnsafeMutableBufferPointer<Element>
}
