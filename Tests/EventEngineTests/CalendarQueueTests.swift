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

/// The engine over a calendar queue delivers exactly what the heap engine delivers.
@Suite struct CalendarEngineTests {
    static func trace<Q: EntryPriorityQueue>(_ engine: QueuedEngine<Note, Q>, seed: UInt64) -> [String] {
        var inputs = TestInputs(state: seed)
        var handles: [EventHandle] = []
        var log: [String] = []
        for i in 0..<300 {
            handles.append(engine.schedule(Note(id: i), at: SimTime(inputs.next(5_000)), priority: Int32(inputs.next(3))))
        }
        engine.scheduleRecurring(Note(id: -1), first: 7, every: 997)
        var next = 1_000
        engine.run(until: 400_000) { note in
            log.append("\(engine.now):\(note.id)")
            if note.id >= 0, log.count < 30_000 {
                for _ in 0..<inputs.next(3) {
                    let delay = inputs.next(10) == 0 ? inputs.next(200_000) : inputs.next(3_000)
                    handles.append(engine.schedule(Note(id: next), after: Int64(delay), priority: Int32(inputs.next(3)) - 1))
                    next += 1
                }
                if inputs.next(4) == 0 { engine.cancel(handles[inputs.next(handles.count)]) }
            }
        }
        return log
    }

    @Test func sameDeliveriesAsTheHeapEngine() {
        for seed in UInt64(1)...3 {
            let heap = Self.trace(Engine<Note>(start: 0), seed: seed)
            let calendar = Self.trace(QueuedEngine<Note, CalendarQueue>(start: 0, queue: CalendarQueue(widthShift: 4, ringShift: 8)), seed: seed)
            #expect(heap.count > 1_000)
            #expect(calendar == heap)
        }
    }

    @Test func geometryFollowsTheWorkload() {
        let q = CalendarQueue(pending: 1_000_000, meanDelay: 1e9)
        #expect(q.widthShift == 9 && (1 << q.widthShift) <= 1_000)
        #expect(Double(1 << (q.widthShift + q.ringShift)) >= 4e9 || q.ringShift == 22)
    }
}
