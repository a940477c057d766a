/// Identifies a scheduled event (or a whole recurring series) so it can be cancelled.
///
/// A handle names a slot of the engine plus the slot's generation at scheduling time;
/// the generation changes when the slot is freed, so stale handles (delivered or
/// cancelled events) never match a later event that reuses the slot.
@frozen
public struct EventHandle: Hashable, Sendable {
    @usableFromInline let slot: UInt32
    @usableFromInline let generation: UInt32

    @inlinable
    init(slot: UInt32, generation: UInt32) {
        self.slot = slot
        self.generation = generation
    }
}

/// An event type that the engine can count per kind.
public protocol EventKind {
    /// Index into `kindNames`, 0..<kindNames.count.
    var kindIndex: Int { get }
    /// Names of the kinds, used for the per-kind counters.
    static var kindNames: [String] { get }
}

/// Payload storage for one scheduled event or recurring series.
@usableFromInline
struct EventSlot<Event> {
    @usableFromInline var event: Event?
    /// Sequence number of the occurrence currently in the queue; `UInt64.max` when unused.
    /// A queue entry whose sequence differs is stale (cancelled) and is skipped.
    @usableFromInline var queuedSequence: UInt64
    /// Repeat interval in seconds; 0 for a one-shot event.
    @usableFromInline var period: Int64
    @usableFromInline var generation: UInt32

    @inlinable
    init(event: Event?, queuedSequence: UInt64, period: Int64, generation: UInt32) {
        self.event = event
        self.queuedSequence = queuedSequence
        self.period = period
        self.generation = generation
    }
}

/// The engine's mutable state (see `Engine.state`).
@usableFromInline
struct EngineState<Event, Queue: EntryPriorityQueue> {
    @usableFromInline var queue: Queue
    @usableFromInline var slots: ContiguousArray<EventSlot<Event>> = []
    @usableFromInline var freeSlots: [UInt32] = []
    @usableFromInline var currentTime: SimTime
    @usableFromInline var nextSequence: UInt64 = 0
    @usableFromInline var liveCount = 0
    @usableFromInline var staleCount = 0
    @usableFromInline var deliveredCount = 0
    @usableFromInline var deliveredByKind: [Int]
    @usableFromInline var stopRequested = false

    @usableFromInline
    init(start: SimTime, kindCount: Int, queue: Queue) {
        self.queue = queue
        currentTime = start
        deliveredByKind = Array(repeating: 0, count: kindCount)
    }
}

/// Domain-free discrete-event engine.
///
/// - Events are delivered in the order (time, priority, insertion sequence): at equal
///   times smaller priorities come first, and at equal (time, priority) the event
///   scheduled first comes first. The same inputs therefore always give the same order.
/// - `run(until: end)` delivers events with time **strictly before** `end` (half-open
///   interval), so consecutive runs `[a, b)`, `[b, c)` deliver exactly the sequence of a
///   single run to `c`.
/// - Scheduling in the past (`t < now`) is a programming error and traps (precondition),
///   like an out-of-range array index: a simulation that does it is already wrong.
/// - Cancellation is O(1): the slot is freed at once and its queue entry is dropped lazily
///   when it reaches the front (or when stale entries outnumber live ones).
/// - Not thread-safe: one engine belongs to one simulation thread.
/// - The queue is a 4-ary heap (`Engine<Event>`) or any `EntryPriorityQueue`, e.g. a
///   `CalendarQueue` for many pending events spread over a known horizon; the order is the same.
public typealias Engine<Event: EventKind> = QueuedEngine<Event, QuaternaryHeap>

/// The engine over a chosen priority queue (see `Engine`).
public final class QueuedEngine<Event: EventKind, Queue: EntryPriorityQueue> {
    /// All mutable state, behind a pointer the engine owns.
    ///
    /// Stored properties of a class get dynamic exclusivity checks (swift_beginAccess, a
    /// thread-local access set) on every access; profiling the hold benchmark showed them
    /// at ~40% of the time. Accesses through an unsafe pointer are not checked. This is
    /// sound here because no access is held across the handler call (the handler may
    /// reenter schedule/cancel) and the engine is confined to one thread.
    @usableFromInline let state: UnsafeMutablePointer<EngineState<Event, Queue>>

    /// Stale entries tolerated before the queue is compacted (and only when they are
    /// more than half of the queue), so heavy cancelling cannot grow memory unboundedly.
    @usableFromInline static var compactionThreshold: Int { 4_096 }

    public convenience init(start: SimTime) { self.init(start: start, queue: Queue()) }

    /// An engine over `queue` (empty; e.g. a `CalendarQueue` with a geometry fitting the workload).
    public init(start: SimTime, queue: Queue) {
        precondition(queue.count == 0, "the engine needs an empty queue")
        state = .allocate(capacity: 1)
        state.initialize(to: EngineState(start: start, kindCount: Event.kindNames.count, queue: queue))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Current simulated time: the time of the event being delivered, or the end of the last run.
    @inlinable
    public var now: SimTime { state.pointee.currentTime }

    /// Scheduled events not yet delivered nor cancelled (a recurring series counts once).
    @inlinable
    public var pendingCount: Int { state.pointee.liveCount }

    /// Events delivered so far (each occurrence of a recurring series counts).
    @inlinable
    public var processedCount: Int { state.pointee.deliveredCount }

    /// Events of one kind delivered so far.
    @inlinable
    public func processedCount(of kindIndex: Int) -> Int { state.pointee.deliveredByKind[kindIndex] }

    /// Delivered events per kind name.
    public var processedCountsByKind: [String: Int] {
        Dictionary(uniqueKeysWithValues: zip(Event.kindNames, state.pointee.deliveredByKind))
    }

    /// Pre-allocates room for `pending` simultaneously scheduled events.
    public func reserveCapacity(pending: Int) {
        state.pointee.queue.reserveCapacity(pending)
        state.pointee.slots.reserveCapacity(pending)
    }

    // MARK: Scheduling

    /// Schedules `event` at time `t` (precondition: `t >= now`).
    @inlinable @discardableResult
    public func schedule(_ event: Event, at t: SimTime, priority: Int32 = 0) -> EventHandle {
        precondition(t >= state.pointee.currentTime, "scheduling at \(t), before now (\(state.pointee.currentTime))")
        return enqueue(event, at: t, priority: priority, period: 0)
    }

    /// Schedules `event` `delay` seconds from now (precondition: `delay >= 0`).
    @inlinable @discardableResult
    public func schedule(_ event: Event, after delay: Int64, priority: Int32 = 0) -> EventHandle {
        precondition(delay >= 0, "negative delay \(delay)")
        return enqueue(event, at: state.pointee.currentTime + delay, priority: priority, period: 0)
    }

    /// Schedules `event` at `first`, `first + every`, `first + 2 every`, ... until the
    /// returned handle is cancelled (precondition: `first >= now`, `every > 0`).
    ///
    /// Each occurrence is re-queued just before it is delivered, so at equal (time,
    /// priority) the next occurrence comes after events scheduled before that delivery
    /// and before events the handler schedules.
    @inlinable @discardableResult
    public func scheduleRecurring(_ event: Event, first: SimTime, every: Int64, priority: Int32 = 0) -> EventHandle {
        precondition(first >= state.pointee.currentTime, "scheduling at \(first), before now (\(state.pointee.currentTime))")
        precondition(every > 0, "recurrence interval must be positive, got \(every)")
        return enqueue(event, at: first, priority: priority, period: every)
    }

    /// Cancels a scheduled event or a whole recurring series. Cancelling an event that was
    /// already delivered or cancelled is a no-op. Cancelled events are never delivered nor counted.
    @inlinable
    public func cancel(_ handle: EventHandle) {
        let index = Int(handle.slot)
        guard index < state.pointee.slots.count, state.pointee.slots[index].generation == handle.generation,
              state.pointee.slots[index].queuedSequence != UInt64.max
        else { return }
        freeSlot(index)
        state.pointee.staleCount += 1
        if state.pointee.staleCount > Self.compactionThreshold && state.pointee.staleCount * 2 > state.pointee.queue.count {
            compactQueue()
        }
    }

    /// Whether a handle still refers to a pending event or a running series.
    @inlinable
    public func isPending(_ handle: EventHandle) -> Bool {
        let index = Int(handle.slot)
        return index < state.pointee.slots.count && state.pointee.slots[index].generation == handle.generation
            && state.pointee.slots[index].queuedSequence != UInt64.max
    }

    // MARK: Running

    /// Delivers, in order, every event with time `< end` to `handler`, setting `now` to
    /// each event's time. The handler may schedule, cancel and `stop()` reentrantly.
    /// On return `now == end`, unless the run was stopped (then `now` is the time of the
    /// last delivered event) or the handler threw (the event was counted as delivered).
    /// Precondition: `end >= now`.
    @inlinable
    public func run(until end: SimTime, _ handler: (Event) throws -> Void) rethrows {
        precondition(end >= state.pointee.currentTime, "run(until: \(end)) before now (\(state.pointee.currentTime))")
        state.pointee.stopRequested = false
        while let event = nextEvent(before: end) {
            try handler(event)
            if state.pointee.stopRequested { return }
        }
        state.pointee.currentTime = end
    }

    /// Ends the current `run` after the handler returns. The next `run` continues from there.
    @inlinable
    public func stop() { state.pointee.stopRequested = true }

    /// Time of the next event to be delivered, if any (drops cancelled entries at the front).
    @inlinable
    public func nextEventTime() -> SimTime? {
        while let top = state.pointee.queue.min {
            if state.pointee.slots[Int(top.slot)].queuedSequence == top.sequence { return top.time }
            _ = state.pointee.queue.removeMin()
            state.pointee.staleCount -= 1
        }
        return nil
    }

    // MARK: Internals

    @inlinable
    func enqueue(_ event: Event, at t: SimTime, priority: Int32, period: Int64) -> EventHandle {
        let sequence = state.pointee.nextSequence
        state.pointee.nextSequence &+= 1
        let slot: UInt32
        if let reused = state.pointee.freeSlots.popLast() {
            slot = reused
            state.pointee.slots[Int(reused)].event = event
            state.pointee.slots[Int(reused)].queuedSequence = sequence
            state.pointee.slots[Int(reused)].period = period
        } else {
            precondition(state.pointee.slots.count < Int(UInt32.max), "too many simultaneously scheduled events")
            slot = UInt32(truncatingIfNeeded: state.pointee.slots.count)
            state.pointee.slots.append(EventSlot(event: event, queuedSequence: sequence, period: period, generation: 0))
        }
        state.pointee.liveCount += 1
        state.pointee.queue.insert(QueueEntry(time: t, priority: priority, sequence: sequence, slot: slot))
        return EventHandle(slot: slot, generation: state.pointee.slots[Int(slot)].generation)
    }

    /// Removes and returns the next live event before `end`, advancing `now` and the
    /// counters; nil when there is none. Recurring series are re-queued here.
    @inlinable
    func nextEvent(before end: SimTime) -> Event? {
        while let top = state.pointee.queue.min, top.time < end {
            let index = Int(top.slot)
            guard state.pointee.slots[index].queuedSequence == top.sequence else {
                _ = state.pointee.queue.removeMin()
                state.pointee.staleCount -= 1
                continue
            }
            state.pointee.currentTime = top.time
            let event: Event
            let period = state.pointee.slots[index].period
            if period == 0 {
                _ = state.pointee.queue.removeMin()
                event = state.pointee.slots[index].event.unsafelyUnwrapped
                freeSlot(index)
            } else {
                event = state.pointee.slots[index].event.unsafelyUnwrapped
                let sequence = state.pointee.nextSequence
                state.pointee.nextSequence &+= 1
                state.pointee.slots[index].queuedSequence = sequence
                _ = state.pointee.queue.replaceMin(with: QueueEntry(
                    time: top.time + period, priority: top.priority, sequence: sequence, slot: top.slot))
            }
            state.pointee.deliveredCount += 1
            state.pointee.deliveredByKind[event.kindIndex] += 1
            return event
        }
        return nil
    }

    /// Releases a slot: drops the payload (and any references it holds) and invalidates
    /// its handle and its queue entry.
    @inlinable
    func freeSlot(_ index: Int) {
        state.pointee.slots[index].event = nil
        state.pointee.slots[index].queuedSequence = UInt64.max
        state.pointee.slots[index].generation &+= 1
        state.pointee.freeSlots.append(UInt32(truncatingIfNeeded: index))
        state.pointee.liveCount -= 1
    }

    @usableFromInline
    func compactQueue() {
        let slots = state.pointee.slots   // a copy (shared buffer), so the closure does not alias the queue
        state.pointee.queue.removeAll { slots[Int($0.slot)].queuedSequence != $0.sequence }
        state.pointee.staleCount = 0
    }
}
