@testable import EventEngine
import Testing

/// Randomised workloads on which every priority queue and engine must agree with the 4-ary heap.
enum QueueWorkloads {
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
}
