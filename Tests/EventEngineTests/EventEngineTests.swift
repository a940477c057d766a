@testable import EventEngine
import Testing

/// Test event: an id to trace delivery order, and one of three kinds for the counters.
struct Note: EventKind, Equatable {
    enum Kind: Int { case ping, pong, tick }
    var id: Int
    var kind: Kind = .ping
    var kindIndex: Int { kind.rawValue }
    static let kindNames = ["ping", "pong", "tick"]
}

/// Deterministic test inputs (not simulation randomness): a 64-bit LCG.
struct TestInputs {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

@Suite struct EngineOrderingTests {
    @Test func ordersByTimeThenPriorityThenInsertion() {
        let engine = Engine<Note>(start: 100)
        engine.schedule(Note(id: 1), at: 130)
        engine.schedule(Note(id: 2), at: 110, priority: 5)
        engine.schedule(Note(id: 3), at: 110, priority: -1)
        engine.schedule(Note(id: 4), at: 110, priority: 5)
        engine.schedule(Note(id: 5), at: 110)
        engine.schedule(Note(id: 6), at: 100)
        engine.schedule(Note(id: 7), after: 10, priority: 5)
        var delivered: [(Int, SimTime)] = []
        engine.run(until: 1_000) { delivered.append(($0.id, engine.now)) }
        #expect(delivered.map(\.0) == [6, 3, 5, 2, 4, 7, 1])
        #expect(delivered.map(\.1) == [100, 110, 110, 110, 110, 110, 130])
        #expect(engine.now == 1_000)
        #expect(engine.pendingCount == 0)
        #expect(engine.processedCount == 7)
    }

    @Test func runDeliversOnlyEventsBeforeEnd() {
        let engine = Engine<Note>(start: 0)
        engine.schedule(Note(id: 1), at: 59)
        engine.schedule(Note(id: 2), at: 60)
        var delivered: [Int] = []
        engine.run(until: 60) { delivered.append($0.id) }
        #expect(delivered == [1])
        #expect(engine.now == 60)
        #expect(engine.pendingCount == 1)
        #expect(engine.nextEventTime() == 60)
        engine.run(until: 61) { delivered.append($0.id) }
        #expect(delivered == [1, 2])
        #expect(engine.nextEventTime() == nil)
        engine.run(until: 61) { _ in Issue.record("nothing left") }
        #expect(engine.now == 61)
    }

    @Test func matchesSortOfAllScheduledItems() {
        var inputs = TestInputs(state: 42)
        let engine = Engine<Note>(start: 0)
        // Narrow time and priority ranges force many exact ties.
        var items: [(time: SimTime, priority: Int32, id: Int)] = []
        for id in 0..<5_000 {
            let item = (time: SimTime(inputs.next(200)), priority: Int32(inputs.next(5)) - 2, id: id)
            items.append(item)
            engine.schedule(Note(id: id), at: item.time, priority: item.priority)
        }
        let expected = items.sorted { ($0.time, $0.priority, $0.id) < ($1.time, $1.priority, $1.id) }.map(\.id)
        var delivered: [Int] = []
        engine.run(until: 200) { delivered.append($0.id) }
        #expect(delivered == expected)
    }
}

@Suite struct EngineCancellationTests {
    @Test func cancelledEventsAreNeverDeliveredNorCounted() {
        let engine = Engine<Note>(start: 0)
        let keep = engine.schedule(Note(id: 1), at: 10)
        let drop = engine.schedule(Note(id: 2, kind: .pong), at: 20)
        engine.schedule(Note(id: 3), at: 30)
        #expect(engine.pendingCount == 3)
        engine.cancel(drop)
        #expect(engine.pendingCount == 2)
        #expect(!engine.isPending(drop))
        #expect(engine.isPending(keep))
        engine.cancel(drop)   // twice: no-op
        #expect(engine.pendingCount == 2)
        var delivered: [Int] = []
        engine.run(until: 100) { delivered.append($0.id) }
        #expect(delivered == [1, 3])
        #expect(engine.processedCount == 2)
        #expect(engine.processedCount(of: Note.Kind.pong.rawValue) == 0)
    }

    @Test func cancellingDeliveredEventIsNoOpEvenWhenItsSlotIsReused() {
        let engine = Engine<Note>(start: 0)
        let first = engine.schedule(Note(id: 1), at: 5)
        engine.run(until: 10) { _ in }
        let second = engine.schedule(Note(id: 2), at: 20)   // reuses the freed slot
        #expect(first != second)
        engine.cancel(first)
        #expect(engine.pendingCount == 1)
        var delivered: [Int] = []
        engine.run(until: 30) { delivered.append($0.id) }
        #expect(delivered == [2])
    }

    @Test func handlerCancelsItselfAndOthers() {
        let engine = Engine<Note>(start: 0)
        var handles: [Int: EventHandle] = [:]
        for id in 1...4 { handles[id] = engine.schedule(Note(id: id), at: SimTime(id)) }
        var delivered: [Int] = []
        engine.run(until: 10) { note in
            delivered.append(note.id)
            engine.cancel(handles[note.id]!)   // already being delivered: no-op
            if note.id == 1 { engine.cancel(handles[3]!) }
        }
        #expect(delivered == [1, 2, 4])
        #expect(engine.processedCount == 3)
    }

    @Test func recurringSeriesRepeatsUntilCancelled() {
        let engine = Engine<Note>(start: 0)
        let series = engine.scheduleRecurring(Note(id: 7, kind: .tick), first: 100, every: 50)
        #expect(engine.pendingCount == 1)
        var times: [SimTime] = []
        engine.run(until: 300) { _ in times.append(engine.now) }
        #expect(times == [100, 150, 200, 250])
        #expect(engine.pendingCount == 1)
        engine.cancel(series)
        #expect(engine.pendingCount == 0)
        engine.run(until: 1_000) { _ in Issue.record("series was cancelled") }
        #expect(engine.processedCount(of: Note.Kind.tick.rawValue) == 4)
    }

    @Test func recurringSeriesCancelledFromItsOwnHandler() {
        let engine = Engine<Note>(start: 0)
        var series: EventHandle?
        var count = 0
        series = engine.scheduleRecurring(Note(id: 1), first: 0, every: 10)
        engine.run(until: 1_000) { _ in
            count += 1
            if count == 3 { engine.cancel(series!) }
        }
        #expect(count == 3)
        #expect(engine.pendingCount == 0)
        #expect(!engine.isPending(series!))
    }

    @Test func massCancellationCompactsTheQueue() {
        let engine = Engine<Note>(start: 0)
        var handles: [EventHandle] = []
        for id in 0..<20_000 { handles.append(engine.schedule(Note(id: id), at: SimTime(id % 997))) }
        for (id, handle) in handles.enumerated() where id % 10 != 0 { engine.cancel(handle) }
        #expect(engine.pendingCount == 2_000)
        #expect(engine.state.pointee.queue.count < 20_000 / 2)   // stale entries were dropped
        var delivered: [Int] = []
        engine.run(until: 1_000) { delivered.append($0.id) }
        let expected = (0..<20_000).filter { $0 % 10 == 0 }.sorted { ($0 % 997, $0) < ($1 % 997, $1) }
        #expect(delivered == expected)
    }
}

@Suite struct EngineRunControlTests {
    @Test func reentrantSchedulingAtAndAfterNow() {
        let engine = Engine<Note>(start: 0)
        engine.schedule(Note(id: 1), at: 10)
        engine.schedule(Note(id: 2), at: 10)
        var delivered: [(Int, SimTime)] = []
        engine.run(until: 100) { note in
            delivered.append((note.id, engine.now))
            if note.id == 1 {
                engine.schedule(Note(id: 3), at: engine.now)            // same time: after 2 (later sequence)
                engine.schedule(Note(id: 4), at: engine.now, priority: -1)   // same time, earlier priority: next
                engine.schedule(Note(id: 5), after: 5)
            }
        }
        #expect(delivered.map(\.0) == [1, 4, 2, 3, 5])
        #expect(delivered.map(\.1) == [10, 10, 10, 10, 15])
    }

    @Test func stopEndsTheRunAfterTheCurrentEvent() {
        let engine = Engine<Note>(start: 0)
        for id in 1...5 { engine.schedule(Note(id: id), at: SimTime(id * 10)) }
        var delivered: [Int] = []
        engine.run(until: 1_000) { note in
            delivered.append(note.id)
            if note.id == 2 { engine.stop() }
        }
        #expect(delivered == [1, 2])
        #expect(engine.now == 20)
        #expect(engine.pendingCount == 3)
        engine.run(until: 1_000) { delivered.append($0.id) }   // resumes; the stop does not persist
        #expect(delivered == [1, 2, 3, 4, 5])
        #expect(engine.now == 1_000)
    }

    @Test func perKindCounters() {
        let engine = Engine<Note>(start: 0)
        for id in 0..<10 { engine.schedule(Note(id: id, kind: id % 3 == 0 ? .tick : .ping), at: SimTime(id)) }
        engine.schedule(Note(id: 99, kind: .pong), at: 5)
        engine.run(until: 100) { _ in }
        #expect(engine.processedCount(of: Note.Kind.ping.rawValue) == 6)
        #expect(engine.processedCount(of: Note.Kind.pong.rawValue) == 1)
        #expect(engine.processedCount(of: Note.Kind.tick.rawValue) == 4)
        #expect(engine.processedCountsByKind == ["ping": 6, "pong": 1, "tick": 4])
        #expect(engine.processedCount == 11)
    }

    @Test func throwingHandlerPropagates() {
        struct Boom: Error {}
        let engine = Engine<Note>(start: 0)
        engine.schedule(Note(id: 1), at: 3)
        engine.schedule(Note(id: 2), at: 4)
        #expect(throws: Boom.self) { try engine.run(until: 10) { _ in throw Boom() } }
        #expect(engine.now == 3)
        #expect(engine.pendingCount == 1)
    }

    @Test func schedulingInThePastTraps() async {
        await #expect(processExitsWith: .failure) {
            let engine = Engine<Note>(start: 100)
            engine.schedule(Note(id: 1), at: 99)
        }
    }
}

// MARK: Randomized comparison with a naive reference

/// Obviously-correct engine: linear scan for the smallest (time, priority, sequence).
final class ReferenceEngine {
    struct Item { var time: SimTime; var priority: Int32; var sequence: Int; var note: Note; var period: Int64 }
    var items: [Int: Item] = [:]   // by handle id
    var now: SimTime
    var nextSequence = 0
    var stopped = false

    init(start: SimTime) { now = start }

    func schedule(_ note: Note, at t: SimTime, priority: Int32, period: Int64, handleID: Int) {
        items[handleID] = Item(time: t, priority: priority, sequence: nextSequence, note: note, period: period)
        nextSequence += 1
    }

    func cancel(_ handleID: Int) { items[handleID] = nil }

    func run(until end: SimTime, _ handler: (Note) -> Void) {
        stopped = false
        while let (id, item) = items.min(by: { ($0.value.time, $0.value.priority, $0.value.sequence)
                                                  < ($1.value.time, $1.value.priority, $1.value.sequence) }),
              item.time < end {
            now = item.time
            if item.period > 0 {
                items[id]!.time += item.period
                items[id]!.sequence = nextSequence
                nextSequence += 1
            } else {
                items[id] = nil
            }
            handler(item.note)
            if stopped { return }
        }
        now = end
    }
}

/// What the random script needs from an engine.
protocol ScriptedEngine: AnyObject {
    var now: SimTime { get }
    func schedule(_ note: Note, at t: SimTime, priority: Int32, period: Int64, handleID: Int)
    func cancel(handleID: Int)
    func stop()
    /// Runs to `end`, resuming after stops.
    func runResuming(until end: SimTime, _ handler: (Note) -> Void)
}

final class EngineUnderTest: ScriptedEngine {
    let engine = Engine<Note>(start: 0)
    var handles: [Int: EventHandle] = [:]
    var now: SimTime { engine.now }
    func schedule(_ note: Note, at t: SimTime, priority: Int32, period: Int64, handleID: Int) {
        handles[handleID] = period > 0
            ? engine.scheduleRecurring(note, first: t, every: period, priority: priority)
            : engine.schedule(note, at: t, priority: priority)
    }
    func cancel(handleID: Int) { engine.cancel(handles[handleID]!) }
    func stop() { engine.stop() }
    func runResuming(until end: SimTime, _ handler: (Note) -> Void) {
        repeat { engine.run(until: end, handler) } while engine.now < end
    }
}

extension ReferenceEngine: ScriptedEngine {
    func cancel(handleID: Int) { cancel(handleID) }
    func stop() { stopped = true }
    func runResuming(until end: SimTime, _ handler: (Note) -> Void) {
        repeat { run(until: end, handler) } while now < end
    }
}

/// The same random script (schedules, recurring series, cancels, stops, chunked runs)
/// driven through both engines; every decision comes from the delivered event itself,
/// so the scripts stay identical exactly as long as the delivery orders agree.
@Suite struct EngineRandomizedTests {
    static func drive(_ target: some ScriptedEngine, seed: UInt64, chunked: Bool) -> [String] {
        var inputs = TestInputs(state: seed)
        var log: [String] = []
        var nextID = 0
        func scheduleRandom(from t: SimTime) {
            let recurring = inputs.next(20) == 0
            let time = t + SimTime(inputs.next(30))
            let priority = Int32(inputs.next(3)) - 1
            let period = recurring ? Int64(1 + inputs.next(40)) : 0
            target.schedule(Note(id: nextID, kind: recurring ? .tick : .ping), at: time, priority: priority,
                            period: period, handleID: nextID)
            nextID += 1
        }
        for _ in 0..<200 { scheduleRandom(from: 0) }
        var end: SimTime = 0
        while end < 2_000 {
            end = chunked ? end + SimTime(1 + inputs.next(90)) : 2_000
            target.runResuming(until: end) { note in
                log.append("\(note.id)@\(target.now)")
                // About one new event per delivery, up to a budget, so the run terminates.
                for _ in 0..<inputs.next(3) where nextID < 4_000 { scheduleRandom(from: target.now) }
                if inputs.next(4) == 0, nextID > 0 { target.cancel(handleID: inputs.next(nextID)) }
                if note.kind == .tick, inputs.next(8) == 0 { target.cancel(handleID: note.id) }
                if inputs.next(500) == 0 { log.append("stop"); target.stop() }
            }
            if inputs.next(10) == 0 { for _ in 0..<20 { target.cancel(handleID: inputs.next(nextID)) } }
        }
        return log
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func engineMatchesReference(seed: UInt64) {
        for chunked in [false, true] {
            let underTest = EngineUnderTest()
            let reference = ReferenceEngine(start: 0)
            let engineLog = Self.drive(underTest, seed: seed, chunked: chunked)
            let referenceLog = Self.drive(reference, seed: seed, chunked: chunked)
            #expect(engineLog.count > 1_000)
            #expect(engineLog == referenceLog, "seed \(seed), chunked \(chunked)")
            #expect(underTest.engine.pendingCount == reference.items.count)
        }
    }

    @Test func chunkedRunsEqualOneRun() {
        func trace(chunk: SimTime?) -> [String] {
            let engine = Engine<Note>(start: 0)
            var inputs = TestInputs(state: 99)
            var log: [String] = []
            for id in 0..<100 { engine.schedule(Note(id: id), at: SimTime(inputs.next(86_400)), priority: Int32(inputs.next(2))) }
            engine.scheduleRecurring(Note(id: -1, kind: .tick), first: 0, every: 3_600)
            var nextID = 100
            let handler: (Note) -> Void = { note in
                log.append("\(note.id)@\(engine.now)")
                if note.kind == .ping {
                    engine.schedule(Note(id: nextID), after: Int64(inputs.next(86_400)), priority: Int32(inputs.next(2)))
                    nextID += 1
                }
            }
            let end: SimTime = 30 * SimDuration.day
            if let chunk {
                var t: SimTime = 0
                while t < end { t = min(end, t + chunk); engine.run(until: t, handler) }
            } else {
                engine.run(until: end, handler)
            }
            #expect(engine.now == end)
            return log
        }
        let single = trace(chunk: nil)
        #expect(single.count > 3_000)
        #expect(trace(chunk: SimDuration.day) == single)
        #expect(trace(chunk: 3_600) == single)   // boundaries coincide with the recurring ticks
        #expect(trace(chunk: 7_777) == single)
    }
}
