import Dispatch
import Synchronization

/// Runs `body` over `count` items split into contiguous shards, one per worker, and
/// waits. Each shard writes only its own items, so the result never depends on `threads`.
package func forEachShard(count: Int, threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
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

/// Runs `body` on each of `0..<count` with at most `threads` at once, items taken in order by
/// whichever worker is free.
package func forEachItem(count: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
    let workers = max(1, min(threads, count))
    if workers == 1 {
        for i in 0..<count { body(i) }
        return
    }
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while true {
            let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard i < count else { return }
            body(i)
        }
    }
}

/// A buffer that parallel shards write into at disjoint indices.
package struct SharedBuffer<Element>: @unchecked Sendable {
    package let base: UnsafeMutableBufferPointer<Element>

    package init(base: UnsafeMutableBufferPointer<Element>) { self.base = base }
}

/// A buffer that parallel shards only read.
package struct SharedReadBuffer<Element>: @unchecked Sendable {
    package let base: UnsafeBufferPointer<Element>

    package init(base: UnsafeBufferPointer<Element>) { self.base = base }
}

/// One result slot per shard, written by that shard only, read after all shards finished.
package final class ShardResults<T: Sendable>: @unchecked Sendable {
    private var slots: [T?]

    package init(count: Int) { slots = Array(repeating: nil, count: count) }

    package func set(_ index: Int, _ value: T) { slots[index] = value }

    /// In shard order.
    package var all: [T] { slots.map { $0! } }

    /// In shard order, leaving no slot holding its value (so that the caller holds the only copy).
    package func takeAll() -> [T] {
        defer { slots = [] }
        return slots.map { $0! }
    }
}

/// Each shard's array sizes of the last day (or step), to reserve the next one's from: an array
/// grown by doubling copies itself into fresh pages at every step (the contact shards' copies took
/// a fifth of the page faults of a 300 k × 7 run), while capacity reserved but never written takes
/// no memory (blocks that large are mapped pages, each faulted in only when first written).
/// Shards write only their own sizes.
package final class ShardSizes: @unchecked Sendable {
    private var sizes: [Int] = []
    private let kinds: Int

    /// `kinds`: how many arrays each shard sizes.
    package init(kinds: Int = 1) { self.kinds = kinds }

    /// Before the shards run: the last day's sizes are kept while the layout has as many shards.
    package func begin(shards: Int) {
        if sizes.count != shards * kinds { sizes = [Int](repeating: 0, count: shards * kinds) }
    }

    /// A quarter above the last day's size (0 on the first day: grown as before).
    package func reservation(shard: Int, kind: Int = 0) -> Int {
        let last = sizes[shard * kinds + kind]
        return last + last / 4
    }

    package func record(shard: Int, kind: Int = 0, size: Int) { sizes[shard * kinds + kind] = size }
}
