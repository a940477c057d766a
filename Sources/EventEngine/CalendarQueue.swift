/// Calendar (bucket) queue with exactly the order of `QuaternaryHeap`: (time, priority, sequence).
///
/// Time is cut into buckets of `2^widthShift` seconds; a ring of `2^ringShift` buckets covers
/// the window starting at the cursor's bucket. Entries beyond the window wait in an overflow
/// heap and move into the ring as the cursor reaches them; entries scheduled before the
/// cursor's bucket (possible once the cursor has skipped ahead past now) go to a small "early"
/// heap that is always served first. Insert and remove are O(1) amortised when most events
/// fall inside the window, which is the case for periodic per-client checks (many events per
/// second, all within a few hours): no `log n` cache misses as in a heap of millions.
///
/// A bucket is an array plus a read cursor. It is kept sorted: appends in sequence order keep
/// it sorted for free (the common case); otherwise it is sorted when it becomes current, and
/// inserts into the current bucket go to their sorted place.
public struct CalendarQueue: EntryPriorityQueue {
    @usableFromInline struct Bucket {
        @usableFromInline var entries: ContiguousArray<QueueEntry> = []
        /// Entries before `head` were already removed.
        @usableFromInline var head = 0
        @usableFromInline var sorted = true
        /// Copy of the last entry, so the common append compares without loading the array's tail.
        @usableFromInline var last = QueueEntry(time: .min, priority: .min, sequence: 0, slot: 0)
        @inlinable init() {}
        @inlinable var isEmpty: Bool { head == entries.count }
    }

    public let widthShift: Int
    public let ringShift: Int
    @usableFromInline var buckets: [Bucket]
    /// Virtual bucket number (time >> widthShift) of the cursor; ring index is its low bits.
    @usableFromInline var cursor: Int64 = 0
    @usableFromInline var ringCount = 0
    @usableFromInline var overflow = QuaternaryHeap()
    @usableFromInline var early = QuaternaryHeap()
    @usableFromInline var started = false
    /// Buckets keep their storage after being drained up to this many entries (avoids
    /// reallocating small buckets; big ones are freed so a long ring cannot hoard memory).
    @usableFromInline static let retainedCapacity = 64

    /// Defaults suit per-second events a few hours apart (1 s buckets, 2^14 s ≈ 4.6 h window).
    public init() { self.init(widthShift: 0, ringShift: 14) }

    /// A geometry for `pending` events whose delays average `meanDelay` seconds: buckets of
    /// about the mean gap between events (a few entries each), a ring covering ~4 mean delays.
    public init(pending: Int, meanDelay: Double) {
        func floorLog2(_ x: Double) -> Int { x < 2 ? 0 : 63 - UInt64(x).leadingZeroBitCount }
        let width = Swift.min(40, floorLog2(meanDelay / Double(Swift.max(1, pending))))
        let ring = Swift.min(22, Swift.max(4, floorLog2(4 * meanDelay / Double(1 << width)) + 1))
        self.init(widthShift: width, ringShift: ring)
    }

    public init(widthShift: Int, ringShift: Int) {
        precondition((0...40).contains(widthShift) && (1...26).contains(ringShift), "unsupported calendar geometry")
        self.widthShift = widthShift
        self.ringShift = ringShift
        buckets = Array(repeating: Bucket(), count: 1 << ringShift)
    }

    public var count: Int { ringCount + overflow.count + early.count }

    @inlinable var mask: Int64 { (1 << Int64(ringShift)) - 1 }

    @inlinable func bucketNumber(_ time: SimTime) -> Int64 { time >> Int64(widthShift) }

    public var min: QueueEntry? {
        if let e = early.min { return e }
        if ringCount > 0 {
            let i = Int(cursor & mask)
            return buckets[i].entries[buckets[i].head]
        }
        return overflow.min
    }

    public mutating func insert(_ entry: QueueEntry) {
        let v = bucketNumber(entry.time)
        // An empty ring (hence an empty overflow) restarts its window at this entry.
        if ringCount == 0 && (!started || v >= cursor || count == 0) {
            started = true
            cursor = v
            migrateOverflow()
        }
        if v < cursor {
            early.insert(entry)
        } else if v - cursor > mask {
            overflow.insert(entry)
        } else {
            let i = Int(v & mask)
            ringCount += 1
            buckets[i].place(entry, isCurrent: v == cursor)
        }
    }

    public mutating func removeMin() -> QueueEntry? {
        if early.count > 0 { return early.removeMin() }
        guard ringCount > 0 else { return overflow.removeMin() }
        let i = Int(cursor & mask)
        let top = buckets[i].entries[buckets[i].head]
        buckets[i].head += 1
        ringCount -= 1
        if buckets[i].isEmpty {
            buckets[i].reset()
            advanceCursor()
        }
        return top
    }

    /// Moves the cursor to the next non-empty bucket, pulling overflow entries into the ring
    /// as the window slides; jumps straight to the overflow's minimum when the ring is empty.
    @usableFromInline mutating func advanceCursor() {
        while true {
            if ringCount == 0 {
                guard let next = overflow.min else { return }
                cursor = bucketNumber(next.time)
                migrateOverflow()
                prepareCurrent()
                return
            }
            cursor += 1
            migrateOverflow()
            if !buckets[Int(cursor & mask)].isEmpty {
                prepareCurrent()
                return
            }
        }
    }

    @usableFromInline mutating func migrateOverflow() {
        while let top = overflow.min, bucketNumber(top.time) - cursor <= mask {
            _ = overflow.removeMin()
            ringCount += 1
            buckets[Int(bucketNumber(top.time) & mask)].place(top, isCurrent: false)
        }
    }

    @usableFromInline mutating func prepareCurrent() {
        let i = Int(cursor & mask)
        if !buckets[i].sorted {
            buckets[i].entries[buckets[i].head...].sort()
            buckets[i].sorted = true
        }
    }

    public mutating func removeAll(where isStale: (QueueEntry) -> Bool) {
        var kept: [QueueEntry] = []
        kept.reserveCapacity(count)
        while let e = removeMin() {
            if !isStale(e) { kept.append(e) }
        }
        started = false
        for e in kept { insert(e) }
    }
}

extension CalendarQueue.Bucket {
    @inlinable mutating func place(_ entry: QueueEntry, isCurrent: Bool) {
        if head < entries.count, entry < last {
            if isCurrent {
                // The current bucket is sorted and being read: insert in place.
                var lo = head, hi = entries.count
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if entries[mid] < entry { lo = mid + 1 } else { hi = mid }
                }
                entries.insert(entry, at: lo)
            } else {
                entries.append(entry)
                sorted = false
            }
            if last < entry { last = entry }
        } else {
            entries.append(entry)
            last = entry
        }
    }

    @inlinable mutating func reset() {
        entries.removeAll(keepingCapacity: entries.capacity <= CalendarQueue.retainedCapacity)
        head = 0
        sorted = true
        last = QueueEntry(time: .min, priority: .min, sequence: 0, slot: 0)
    }
}
