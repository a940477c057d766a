@testable import EventEngine
import Testing

@Suite struct EventQueueTests {
    static func randomEntries(count: Int, seed: UInt64) -> [QueueEntry] {
        var inputs = TestInputs(state: seed)
        return (0..<count).map { index in
            QueueEntry(time: SimTime(inputs.next(300)), priority: Int32(inputs.next(3)) - 1,
                       sequence: UInt64(index), slot: UInt32(index))
        }
    }

    static func drain<Q: EntryPriorityQueue>(_ queue: inout Q) -> [QueueEntry] {
        var result: [QueueEntry] = []
        while let entry = queue.removeMin() { result.append(entry) }
        return result
    }

    @Test func entryOrder() {
        let base = QueueEntry(time: 10, priority: 0, sequence: 5, slot: 0)
        #expect(base < QueueEntry(time: 11, priority: -9, sequence: 0, slot: 0))
        #expect(base < QueueEntry(time: 10, priority: 1, sequence: 0, slot: 0))
        #expect(base < QueueEntry(time: 10, priority: 0, sequence: 6, slot: 0))
        #expect(!(base < base))
    }

    @Test func bothQueuesPopInSortedOrder() {
        let entries = Self.randomEntries(count: 3_000, seed: 7)
        let sorted = entries.sorted()
        var quaternary = QuaternaryHeap()
        var collections = CollectionsHeapQueue()
        for entry in entries {
            quaternary.insert(entry)
            collections.insert(entry)
        }
        #expect(quaternary.count == 3_000)
        #expect(quaternary.min == sorted.first)
        #expect(Self.drain(&quaternary) == sorted)
        #expect(Self.drain(&collections) == sorted)
        #expect(quaternary.removeMin() == nil)
    }

    @Test func interleavedInsertRemoveAndReplace() {
        var inputs = TestInputs(state: 11)
        var heap = QuaternaryHeap()
        var reference: [QueueEntry] = []
        var sequence: UInt64 = 0
        func make() -> QueueEntry {
            defer { sequence += 1 }
            return QueueEntry(time: SimTime(inputs.next(50)), priority: 0, sequence: sequence, slot: 0)
        }
        for step in 0..<6_000 {
            switch inputs.next(3) {
            case 0:
                let entry = make()
                heap.insert(entry)
                reference.append(entry)
            case 1 where !reference.isEmpty:
                let smallest = reference.min()!
                reference.remove(at: reference.firstIndex(of: smallest)!)
                #expect(heap.removeMin() == smallest, "step \(step)")
            case 2 where !reference.isEmpty:
                let entry = make()
                let smallest = reference.min()!
                reference.remove(at: reference.firstIndex(of: smallest)!)
                reference.append(entry)
                #expect(heap.replaceMin(with: entry) == smallest, "step \(step)")
            default:
                break
            }
            #expect(heap.count == reference.count)
        }
        #expect(Self.drain(&heap) == reference.sorted())
    }

    @Test func removeAllRestoresHeapOrder() {
        let entries = Self.randomEntries(count: 5_000, seed: 3)
        var quaternary = QuaternaryHeap()
        var collections = CollectionsHeapQueue()
        for entry in entries {
            quaternary.insert(entry)
            collections.insert(entry)
        }
        let isStale: (QueueEntry) -> Bool = { $0.slot % 3 != 0 }
        quaternary.removeAll(where: isStale)
        collections.removeAll(where: isStale)
        let expected = entries.filter { !isStale($0) }.sorted()
        #expect(Self.drain(&quaternary) == expected)
        #expect(Self.drain(&collections) == expected)
    }
}
