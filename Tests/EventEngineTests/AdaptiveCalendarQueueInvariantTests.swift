@testable import EventEngine
import Testing

/// The structural checks of `AdaptiveCalendarQueue+Invariants.swift`.
@Suite struct AdaptiveCalendarQueueInvariantTests {
    #if DEBUG
    @Test func checksAreCompiledIntoDebugBuilds() {
        #expect(AdaptiveCalendarQueue._isConsistencyCheckingEnabled)
    }

    /// Every state of a queue that grows, shrinks, is copied and compacted passes the full walk.
    @Test func everyStatePassesTheFullWalk() {
        var inputs = TestInputs(state: 3)
        var queue = AdaptiveCalendarQueue()
        var sequence: UInt64 = 0
        var now: SimTime = -100
        for step in 0..<6_000 {
            let growing = (step / 1_000) % 2 == 0
            if inputs.next(10) < (growing ? 7 : 3) {
                let delay = inputs.next(10) == 0 ? inputs.next(1 << 36) : inputs.next(500)
                queue.insert(QueueEntry(time: now + SimTime(delay), priority: Int32(inputs.next(3)) - 1, sequence: sequence, slot: 0))
                sequence += 1
            } else if let e = queue.removeMin() {
                now = e.time
            }
            queue._checkInvariants()
            if step % 997 == 0 {
                var copy = queue
                _ = copy.removeMin()
                copy._checkInvariants()
                queue._checkInvariants()
            }
        }
        queue.removeAll { $0.sequence % 2 == 0 }
        queue._checkInvariants()
        queue.reserveCapacity(10_000)
        queue._checkInvariants()
    }

    @Test func aStaleHeadIsCaught() async {
        await #expect(processExitsWith: .failure) {
            var queue = AdaptiveCalendarQueue()
            for i in 0..<10 { queue.insert(QueueEntry(time: SimTime(i), priority: 0, sequence: UInt64(i), slot: 0)) }
            queue.heads[Int(queue.cursor & queue.bucketMask)].firstEntry.priority = -1
            queue._checkInvariants()
        }
    }
    #endif
}
