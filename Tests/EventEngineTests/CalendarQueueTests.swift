import Testing
@testable import EventEngine

/// The calendar queue must pop exactly what the 4-ary heap pops, in the same order.
@Suite struct CalendarQueueTests {
    /// A discrete-event workload: pops interleaved with inserts at or after the last popped
    /// time (as an engine does), with a mix of near, same-time, far (overflow) delays and priorities.
    static func replay<Q: EntryPriorityQueue>(_ queue: inout Q, seed: UInt64, operations: Int, maxDelay: Int) -> [QueueEntry] {
        var inputs = TestInputs(state: seed)
        var sequence: UInt64 = 0
        var now: SimTime = 1_600_000_000
        var popped: [QueueEntry] = []
        func insert(_ q: inout Q) {
            let delay: Int
            switch inputs.next(10) {
            case 0: delay = 0
            case 1: delay = inputs.next(maxDelay * 50 + 1)     // beyond most windows
            default: delay = inputs.next(maxDelay + 1)
            }
            q.insert(QueueEntry(time: now + SimTime(delay), priority: Int32(inputs.next(3)) - 1,
                                sequence: sequence, slot: UInt32(truncatingIfNeeded: sequence)))
            sequence += 1
        }
        for _ in 0..<200 { insert(&queue) }
        for _ in 0..<operations {
            let r = inputs.next(10)
            if r < 5, let e = queue.removeMin() {
                now = e.time
                popped.append(e)
            } else if r < 9 || queue.count == 0 {
                insert(&queue)
            } else {
                _ = queue.min
            }
        }
        while let e = queue.removeMin() { popped.append(e) }
        return popped
    }

    @Test(arguments: [(0, 4, 100), (0, 8, 5_000), (3, 6, 400), (10, 12, 1_000_000), (0, 2, 30)])
    func matchesTheHeapOnRandomWorkloads(widthShift: Int, ringShift: Int, maxDelay: Int) {
        for seed in UInt64(1)...4 {
            var heap = QuaternaryHeap()
            var calendar = CalendarQueue(widthShift: widthShift, ringShift: ringShift)
            let expected = Self.replay(&heap, seed: seed, operations: 20_000, maxDelay: maxDelay)
            let actual = Self.replay(&calendar, seed: seed, operations: 20_000, maxDelay: maxDelay)
            #expect(actual == expected, "geometry 2^\(widthShift) s x 2^\(ringShift), seed \(seed)")
            #expect(calendar.count == 0)
        }
    }

    @Test func sortedOrderAndRemoveAll() {
        let entries = EventQueueTests.randomEntries(count: 3_000, seed: 11)
        var calendar = CalendarQueue(widthShift: 2, ringShift: 5)
        for e in entries { calendar.insert(e) }
        #expect(calendar.count == 3_000)
        #expect(calendar.min == entries.min())
        calendar.removeAll { $0.slot % 3 == 0 }
        #expect(EventQueueTests.drain(&calendar) == entries.sorted().filter { $0.slot % 3 != 0 })
        #expect(calendar.removeMin() == nil && calendar.min == nil)
    }
}
