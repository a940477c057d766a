import CPrefetch

/// Classic calendar queue (R. Brown, CACM 1988) that sizes itself to the pending count, with
/// exactly the order of `QuaternaryHeap`: (time, priority, insertion sequence).
///
/// Time is cut into buckets of `2^widthShift` seconds; bucket `b` holds every entry whose
/// virtual bucket number `time >> widthShift` is congruent to `b` modulo the bucket count, in
/// one sorted singly linked list (entries of later "years" stay in the list behind the current
/// year's and are skipped by time). The cursor is always the virtual bucket of the minimum,
/// so `min` is O(1); after a removal the cursor walks forward to the next bucket whose first
/// entry belongs to the walked position (a direct search over the bucket heads when a whole
/// year is empty).
///
/// Unlike a calendar queue with a fixed geometry chosen up front and one Swift array per bucket,
/// it needs no configuration and allocates nothing per insert:
/// - entries live in one pooled array of 32-byte nodes linked by `Int32` indices, with a free
///   list (LIFO, so the node freed by a removal is reused, still in cache, by the next insert);
/// - the bucket table is one flat array of 24-byte heads (first and last node plus their
///   times), so scanning buckets and most inserts read only the table, not the nodes;
/// - the bucket count doubles when entries outnumber buckets and halves below a quarter (so
///   lists stay about one node long: a walk along a list is a chain of cache misses); the
///   width is re-estimated on every resize from the gaps between the first entries in order
///   (Brown's estimate: 3x the mean gap, ignoring gaps over twice the mean, rounded down to a
///   power of two), and again when the measured work per operation (buckets scanned, list
///   nodes walked) shows the width no longer fits the times queued;
/// - big buffers use transparent huge pages (`HugePages`): at a million entries a random
///   bucket or node is otherwise also a TLB miss.
///
/// Measured on the hold model (thread CPU time, machine load ≈ 7): bucket load ≤ 1 beat ≤ 2
/// (Brown's) by ~20% at 10^6 entries, widths of 1.5x and 6x the mean gap were slower than 3x,
/// huge pages gave +20-30%; `perf` showed the time in insert, at the load of the random bucket
/// head and at list walks.
///
/// Equal keys in time order are appended at a bucket's tail in O(1) (entries scheduled at the
/// same time in sequence order); inserting before a long run of equal times in one bucket walks it.
///
/// Debug builds check the structure after every mutation (`AdaptiveCalendarQueue+Invariants.swift`).
public struct AdaptiveCalendarQueue: EntryPriorityQueue {
    @usableFromInline struct Node {
        @usableFromInline var entry: QueueEntry
        @usableFromInline var next: Int32
        @inlinable init(entry: QueueEntry, next: Int32) {
            self.entry = entry
            self.next = next
        }
    }

    @usableFromInline struct Head {
        /// Copy of the first entry (meaningless when empty): peeking and scanning read only the table.
        @usableFromInline var firstEntry: QueueEntry
        /// Time of the last entry (meaningless when empty).
        @usableFromInline var lastTime: SimTime
        /// Node indices; `first < 0` when the bucket is empty.
        @usableFromInline var first: Int32
        @usableFromInline var last: Int32
        @inlinable init(firstEntry: QueueEntry, lastTime: SimTime, first: Int32, last: Int32) {
            self.firstEntry = firstEntry
            self.lastTime = lastTime
            self.first = first
            self.last = last
        }
        @inlinable static var empty: Head {
            Head(firstEntry: QueueEntry(time: 0, priority: 0, sequence: 0, slot: 0), lastTime: 0, first: -1, last: -1)
        }
    }

    /// Owns the two buffers (frees them; detects sharing for copy-on-write). The buffers are
    /// also held as plain pointers in the struct, so the hot path has no class-property access.
    @usableFromInline final class Owner {
        @usableFromInline var nodes: UnsafeMutablePointer<Node>
        @usableFromInline var heads: UnsafeMutablePointer<Head>
        @usableFromInline init(nodes: UnsafeMutablePointer<Node>, heads: UnsafeMutablePointer<Head>) {
            self.nodes = nodes
            self.heads = heads
        }
        deinit {
            nodes.deallocate()
            heads.deallocate()
        }
    }

    @usableFromInline var owner: Owner
    @usableFromInline var nodes: UnsafeMutablePointer<Node>
    @usableFromInline var heads: UnsafeMutablePointer<Head>
    @usableFromInline var nodeCapacity: Int
    /// Nodes ever handed out (indices below are either live or on the free list).
    @usableFromInline var nodeHighWater: Int = 0
    @usableFromInline var freeList: Int32 = -1
    @usableFromInline var bucketMask: Int64
    @usableFromInline var widthShift: Int64 = 0
    /// Virtual bucket (`time >> widthShift`) of the minimum; meaningless when empty.
    @usableFromInline var cursor: Int64 = 0
    @usableFromInline var storedCount = 0
    /// Work (buckets scanned + nodes walked) and operations since the last check of the width.
    @usableFromInline var work = 0
    @usableFromInline var operations = 0
    @usableFromInline var resizeEnabled = true
    #if DEBUG
    /// Mutations since the last full walk of `_checkInvariants()`.
    @usableFromInline var _mutationsSinceFullCheck = 0
    #endif

    @usableFromInline static var minimumBuckets: Int { 16 }
    @usableFromInline static var sampleSize: Int { 64 }
    /// Buckets double when entries outnumber them and halve below a quarter (hysteresis).
    @usableFromInline static var shrinkDivisor: Int { 4 }

    public init() {
        let buckets = Self.minimumBuckets
        nodeCapacity = 16
        nodes = HugePages.allocate(capacity: 16)
        heads = HugePages.allocate(capacity: buckets)
        heads.initialize(repeating: .empty, count: buckets)
        bucketMask = Int64(buckets - 1)
        owner = Owner(nodes: nodes, heads: heads)
    }

    /// - Complexity: O(1).
    @inlinable public var count: Int { storedCount }
    /// Times the bucket table was rebuilt (resized or re-estimated), for tests of the queue's upkeep.
    package private(set) var rebuilds = 0

    /// Number of buckets (a power of two).
    public var bucketCount: Int { Int(bucketMask) + 1 }

    /// log2 of the bucket width in seconds.
    public var bucketWidthShift: Int { Int(widthShift) }

    /// The smallest entry in (time, priority, sequence) order, or nil when empty.
    ///
    /// - Complexity: O(1): a copy in the bucket table at the cursor.
    @inlinable
    public var min: QueueEntry? {
        storedCount == 0 ? nil : heads[Int(cursor & bucketMask)].firstEntry
    }

    /// Prefetches the minimum's node (removing it reads its link).
    @inlinable
    public func prefetchMin() {
        if storedCount > 0 { ensim_prefetch(UnsafeRawPointer(nodes + Int(heads[Int(cursor & bucketMask)].first))) }
    }

    /// Makes room for `n` entries without growing the node pool.
    ///
    /// - Complexity: O(n) when the pool grows or is shared, O(1) otherwise.
    public mutating func reserveCapacity(_ n: Int) {
        makeUnique()
        if n > nodeCapacity { growNodes(to: n) }
        _checkInvariantsAfterMutation()
    }

    // MARK: Insert and remove

    /// Adds `entry`; equal times keep (priority, sequence) order.
    ///
    /// - Complexity: O(1) expected (buckets hold about one entry); amortized O(n) for the
    ///   resize when the count passes the bucket count. An entry placed inside a bucket's list
    ///   walks that list.
    @inlinable
    public mutating func insert(_ entry: QueueEntry) {
        if !isKnownUniquelyReferenced(&owner) { makeUnique() }
        let v = entry.time >> widthShift
        if storedCount == 0 || v < cursor { cursor = v }
        let node = allocateNode()
        nodes[Int(node)].entry = entry
        link(node, bucket: Int(v & bucketMask))
        storedCount += 1
        operations &+= 1
        if storedCount > Int(bucketMask) + 1, resizeEnabled { resize(buckets: 2 * (Int(bucketMask) + 1)) }
        _checkInvariantsAfterMutation()
    }

    /// Removes and returns the smallest entry, or nil when empty.
    ///
    /// - Complexity: O(1) expected: the cursor moves to the next non-empty bucket of the year
    ///   (a direct search over all b buckets when a whole year is empty); amortized O(n) for
    ///   resizes when the count falls below a quarter of the buckets or the width is re-estimated.
    @inlinable
    public mutating func removeMin() -> QueueEntry? {
        guard storedCount > 0 else { return nil }
        if !isKnownUniquelyReferenced(&owner) { makeUnique() }
        let b = Int(cursor & bucketMask)
        let node = heads[b].first
        let entry = heads[b].firstEntry
        let next = nodes[Int(node)].next
        if next < 0 {
            heads[b].first = -1
        } else {
            heads[b].first = next
            heads[b].firstEntry = nodes[Int(next)].entry
        }
        nodes[Int(node)].next = freeList
        freeList = node
        storedCount -= 1
        operations &+= 1
        if storedCount > 0 { advanceCursor() }
        if resizeEnabled {
            if storedCount < (Int(bucketMask) + 1) / Self.shrinkDivisor, bucketMask + 1 > Self.minimumBuckets {
                resize(buckets: (Int(bucketMask) + 1) / 2)
            } else if operations > Swift.max(1_024, Int(bucketMask) + 1) || work > 2 * Int(bucketMask) + 4_096 {
                // Regularly, and at once when scanning got expensive (a width far too small
                // for the times queued makes each removal scan a whole year of buckets).
                checkWidth()
            }
        }
        _checkInvariantsAfterMutation()
        return entry
    }

    /// Inserts `node` (its entry set) into the sorted list of bucket `b`.
    @inlinable @inline(__always)
    mutating func link(_ node: Int32, bucket b: Int) {
        let entry = nodes[Int(node)].entry
        let head = heads[b]
        if head.first < 0 {
            nodes[Int(node)].next = -1
            heads[b] = Head(firstEntry: entry, lastTime: entry.time, first: node, last: node)
        } else if entry.time > head.lastTime || (entry.time == head.lastTime && !(entry < nodes[Int(head.last)].entry)) {
            // After the last entry (the common case for equal times in sequence order).
            nodes[Int(node)].next = -1
            nodes[Int(head.last)].next = node
            heads[b].last = node
            heads[b].lastTime = entry.time
        } else if entry < head.firstEntry {
            nodes[Int(node)].next = head.first
            heads[b].first = node
            heads[b].firstEntry = entry
        } else {
            // Strictly inside: after the first, before the last.
            var previous = head.first
            var walked = 1
            while true {
                let next = nodes[Int(previous)].next
                if entry < nodes[Int(next)].entry { break }
                previous = next
                walked &+= 1
            }
            nodes[Int(node)].next = nodes[Int(previous)].next
            nodes[Int(previous)].next = node
            work &+= walked
        }
    }

    /// Moves the cursor to the virtual bucket of the minimum (precondition: not empty).
    @inlinable @inline(__always)
    mutating func advanceCursor() {
        var v = cursor
        let buckets = bucketMask + 1
        var scanned: Int64 = 0
        while scanned < buckets {
            let head = heads[Int(v & bucketMask)]
            if head.first >= 0 && head.firstEntry.time >> widthShift == v {
                cursor = v
                work &+= Int(scanned)
                return
            }
            v &+= 1
            scanned &+= 1
        }
        work &+= Int(scanned)
        directSearch()
    }

    /// A whole year of buckets is empty: the minimum is the smallest first time of all buckets.
    @usableFromInline mutating func directSearch() {
        var best = SimTime.max
        var found = false
        for b in 0...Int(bucketMask) where heads[b].first >= 0 {
            if !found || heads[b].firstEntry.time < best { best = heads[b].firstEntry.time }
            found = true
        }
        cursor = best >> widthShift
        work &+= Int(bucketMask) + 1
    }

    @inlinable @inline(__always)
    mutating func allocateNode() -> Int32 {
        if freeList >= 0 {
            let node = freeList
            freeList = nodes[Int(node)].next
            return node
        }
        if nodeHighWater == nodeCapacity { growNodes(to: 2 * nodeCapacity) }
        let node = Int32(truncatingIfNeeded: nodeHighWater)
        nodeHighWater += 1
        return node
    }

    // MARK: Maintenance (not inlined)

    @usableFromInline mutating func growNodes(to capacity: Int) {
        precondition(capacity <= Int(Int32.max), "calendar queue too large")
        let grown = HugePages.allocate(Node.self, capacity: capacity)
        grown.moveInitialize(from: nodes, count: nodeHighWater)
        nodes.deallocate()
        nodes = grown
        owner.nodes = grown
        nodeCapacity = capacity
    }

    /// Copies the buffers if they are shared with another copy of this queue.
    @usableFromInline mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&owner) else { return }
        let newNodes = HugePages.allocate(Node.self, capacity: nodeCapacity)
        newNodes.initialize(from: nodes, count: nodeHighWater)
        let buckets = Int(bucketMask) + 1
        let newHeads = HugePages.allocate(Head.self, capacity: buckets)
        newHeads.initialize(from: heads, count: buckets)
        nodes = newNodes
        heads = newHeads
        owner = Owner(nodes: newNodes, heads: newHeads)
    }

    /// Re-estimates the width when the work per operation since the last check is high, and
    /// rebuilds only for a new width: the same width gives the same table. Ties at whole seconds
    /// (counted in ms) keep Brown's estimate at the smallest width however much a removal scans,
    /// and rebuilding the same table at every check made the queue quadratic (41% of an analytics
    /// run at 40,000 people; `sameWidthIsNotRebuiltOverAndOver`).
    @usableFromInline mutating func checkWidth() {
        let shift = Double(work) / Double(operations) > 3 ? estimateWidthShift() : widthShift
        work = 0
        operations = 0
        if shift != widthShift { resize(buckets: Int(bucketMask) + 1, shift: shift) }
    }

    /// Rebuilds the bucket table with `buckets` buckets and a width estimated from the queue.
    @usableFromInline mutating func resize(buckets: Int) {
        resize(buckets: buckets, shift: estimateWidthShift())
    }

    @usableFromInline mutating func resize(buckets: Int, shift: Int64) {
        rebuilds += 1
        let old = heads
        let oldCount = Int(bucketMask) + 1
        heads = HugePages.allocate(capacity: buckets)
        heads.initialize(repeating: .empty, count: buckets)
        owner.heads = heads
        bucketMask = Int64(buckets - 1)
        widthShift = shift
        var minimum = SimTime.max
        // Relink every node; walking each old list in order keeps most relinks at the tail.
        for b in 0..<oldCount {
            var node = old[b].first
            while node >= 0 {
                let next = nodes[Int(node)].next
                let time = nodes[Int(node)].entry.time
                if time < minimum { minimum = time }
                link(node, bucket: Int((time >> shift) & bucketMask))
                node = next
            }
        }
        old.deallocate()
        if storedCount > 0 { cursor = minimum >> shift }
        work = 0
        operations = 0
    }

    /// Brown's estimate from the first `sampleSize` entries in order: 3x the mean gap between
    /// them, after dropping gaps above twice the mean (a clump of ties then a jump).
    @usableFromInline mutating func estimateWidthShift() -> Int64 {
        let n = Swift.min(storedCount, Self.sampleSize)
        guard n >= 2 else { return widthShift }
        resizeEnabled = false
        defer { resizeEnabled = true }
        var sample: [QueueEntry] = []
        sample.reserveCapacity(n)
        for _ in 0..<n { sample.append(removeMin().unsafelyUnwrapped) }
        for e in sample { insert(e) }
        var total = 0.0
        for i in 1..<n { total += Double(sample[i].time) - Double(sample[i - 1].time) }
        let mean = total / Double(n - 1)
        var kept = 0.0, keptCount = 0
        for i in 1..<n {
            let gap = Double(sample[i].time) - Double(sample[i - 1].time)
            if gap <= 2 * mean {
                kept += gap
                keptCount += 1
            }
        }
        let width = keptCount > 0 ? 3 * kept / Double(keptCount) : 3 * mean
        guard width >= 2 else { return 0 }
        return Int64(Swift.min(48, 63 - UInt64(width).leadingZeroBitCount))
    }

    /// Drops every entry for which `isStale` is true and rebuilds the queue from the rest.
    ///
    /// - Complexity: O(n) expected.
    public mutating func removeAll(where isStale: (QueueEntry) -> Bool) {
        var kept: [QueueEntry] = []
        kept.reserveCapacity(storedCount)
        resizeEnabled = false
        while let e = removeMin() {
            if !isStale(e) { kept.append(e) }
        }
        resizeEnabled = true
        let buckets = Swift.max(Self.minimumBuckets, bucketCount)
        self = AdaptiveCalendarQueue()
        if buckets > Self.minimumBuckets { resize(buckets: buckets) }
        for e in kept { insert(e) }
        _checkInvariantsAfterMutation()
    }
}
