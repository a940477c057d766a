// Structural checks of the calendar queue, in the style of swift-collections' `Heap+Invariants`.
// Compiled only into debug builds (tests included); in release they are empty inline functions
// that vanish, so the hot path is unchanged.

extension AdaptiveCalendarQueue {
    #if DEBUG
    /// Whether the checks below are compiled in.
    public static var _isConsistencyCheckingEnabled: Bool { true }

    /// Queues up to this many entries plus buckets are walked after every mutation.
    @usableFromInline static var _alwaysWalkedSize: Int { 64 }

    /// Larger queues are walked as long as the walks cost at most this many visited buckets and
    /// nodes per mutation on average: a walk after every mutation would make debug runs of a
    /// large queue quadratic (the simulation's tests run millions of events through it).
    @usableFromInline static var _walkBudgetPerMutation: Int { 4 }

    /// Called after every mutation: O(1) checks each time, and a full `_checkInvariants()` after
    /// every mutation while the queue is small, every (size / budget) mutations when it is large.
    @usableFromInline @inline(never)
    mutating func _checkInvariantsAfterMutation() {
        precondition(storedCount >= 0 && storedCount <= nodeHighWater && nodeHighWater <= nodeCapacity,
                     "calendar queue: count \(storedCount), nodes \(nodeHighWater) of \(nodeCapacity)")
        if storedCount > 0 {
            let head = heads[Int(cursor & bucketMask)]
            precondition(head.first >= 0 && head.firstEntry.time >> widthShift == cursor,
                         "calendar queue: the cursor's bucket does not start with an entry of the cursor's year")
        }
        _mutationsSinceFullCheck += 1
        let size = storedCount + bucketCount
        if size <= Self._alwaysWalkedSize || _mutationsSinceFullCheck * Self._walkBudgetPerMutation >= size {
            _mutationsSinceFullCheck = 0
            _checkInvariants()
        }
    }

    /// Walks the whole structure and traps on the first broken invariant:
    /// - the geometry: a power-of-two bucket count of at least `minimumBuckets`, a width shift in
    ///   0...48, the owner holding the buffers the struct uses;
    /// - every bucket's list: nodes in range, visited once, each in the bucket of its time, in
    ///   strictly increasing (time, priority, sequence) order, the head's copies (first entry,
    ///   last node and its time) matching the list;
    /// - the free list: nodes in range, none live, live and free together are all nodes handed out;
    /// - the count, the load bound (entries ≤ buckets while resizing is on), and the cursor: the
    ///   virtual bucket of the minimum, whose entry `min` returns.
    ///
    /// - Complexity: O(n + b) for n entries in b buckets.
    @inline(never)
    public func _checkInvariants() {
        let buckets = Int(bucketMask) + 1
        precondition(buckets >= Self.minimumBuckets && buckets & (buckets - 1) == 0, "bucket count \(buckets) is not a power of two ≥ \(Self.minimumBuckets)")
        precondition((0...48).contains(widthShift), "width shift \(widthShift) out of 0...48")
        precondition(owner.nodes == nodes && owner.heads == heads, "the owner does not hold the queue's buffers")
        precondition(nodeHighWater <= nodeCapacity && nodeCapacity <= Int(Int32.max), "node high water \(nodeHighWater) above capacity \(nodeCapacity)")

        var seen = [Bool](repeating: false, count: nodeHighWater)
        var live = 0
        var minimum: QueueEntry?
        for b in 0..<buckets {
            let head = heads[b]
            guard head.first >= 0 else { continue }
            var node = head.first
            var previous: QueueEntry?
            var lastNode = node
            while node >= 0 {
                precondition(Int(node) < nodeHighWater, "bucket \(b): node \(node) beyond the nodes handed out")
                precondition(!seen[Int(node)], "bucket \(b): node \(node) linked twice (a cycle or a shared node)")
                seen[Int(node)] = true
                live += 1
                let entry = nodes[Int(node)].entry
                precondition(Int((entry.time >> widthShift) & bucketMask) == b, "bucket \(b): entry at \(entry.time) belongs to another bucket")
                if let previous { precondition(previous < entry, "bucket \(b): list out of order at node \(node)") }
                previous = entry
                lastNode = node
                node = nodes[Int(node)].next
            }
            precondition(head.firstEntry == nodes[Int(head.first)].entry, "bucket \(b): the head's copy of the first entry is stale")
            precondition(head.last == lastNode && head.lastTime == nodes[Int(lastNode)].entry.time, "bucket \(b): the head's last node is stale")
            if minimum.map({ head.firstEntry < $0 }) ?? true { minimum = head.firstEntry }
        }
        precondition(live == storedCount, "\(live) entries linked, count says \(storedCount)")

        var free = 0
        var node = freeList
        while node >= 0 {
            precondition(Int(node) < nodeHighWater, "free node \(node) beyond the nodes handed out")
            precondition(!seen[Int(node)], "node \(node) is both free and live (or free twice)")
            seen[Int(node)] = true
            free += 1
            node = nodes[Int(node)].next
        }
        precondition(live + free == nodeHighWater, "\(nodeHighWater - live - free) nodes neither live nor free")

        if resizeEnabled { precondition(storedCount <= buckets, "\(storedCount) entries in \(buckets) buckets: a resize was missed") }
        if let minimum {
            precondition(cursor == minimum.time >> widthShift, "cursor \(cursor) is not the minimum's virtual bucket \(minimum.time >> widthShift)")
            precondition(self.min == minimum, "min is not the smallest entry")
        }
    }
    #else
    public static var _isConsistencyCheckingEnabled: Bool { false }

    @inlinable @inline(__always)
    mutating func _checkInvariantsAfterMutation() {}

    @inlinable @inline(__always)
    public func _checkInvariants() {}
    #endif
}
