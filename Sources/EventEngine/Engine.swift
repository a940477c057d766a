import CPrefetch
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
    /// Next free slot while this one is free (an intrusive free list); `UInt32.max` ends it.
    @usableFromInline var nextFree: UInt32

    @inlinable
    init(event: Event?, queuedSequence: UInt64, period: Int64, generation: UInt32) {
        self.event = event
        self.queuedSequence = queuedSequence
        self.period = period
        self.generation = generation
        nextFree = .max
    }
}

/// The engine's mutable state (see `Engine.state`).
///
/// The slot table and the per-kind counters are raw buffers the engine owns (initialized
/// up to `slotCount`): the hot path then has no array bounds, uniqueness or resizing
/// checks, and freed slots are chained through `EventSlot.nextFree` instead of an array.
@usableFromInline
struct EngineState<Event, Queue: EntryPriorityQueue> {
    @usableFromInline var queue: Queue
    @usableFromInline var slots: UnsafeMutablePointer<EventSlot<Event>>
    @usableFromInline var slotCount = 0
    @usableFromInline var slotCapacity = 0
    /// Head of the free-slot list (most recently freed first); `UInt32.max` when empty.
    @usableFromInline var freeSlot = UInt32.max
    @usableFromInline var currentTime: SimTime
    @usableFromInline var nextSequence: UInt64 = 0
    @usableFromInline var liveCount = 0
    @usableFromInline var staleCount = 0
    @usableFromInline var deliveredCount = 0
    @usableFromInline var deliveredByKind: UnsafeMutablePointer<Int>
    @usableFromInline let kindCount: Int
    @usableFromInline var stopRequested = false

    @usableFromInline
    init(start: SimTime, kindCount: Int, queue: Queue) {
        self.queue = queue
        currentTime = start
        self.kindCount = kindCount
        deliveredByKind = .allocate(capacity: Swift.max(1, kindCount))
        deliveredByKind.initialize(repeating: 0, count: Swift.max(1, kindCount))
        slots = .allocate(capacity: 0)
    }

    /// Frees the buffers (the state itself is then deinitialized by the engine).
    @usableFromInline mutating func release() {
        slots.deinitialize(count: slotCount)
        slots.deallocate()
        deliveredByKind.deallocate()
    }

    /// Grows the slot table to at least `capacity` slots (moving the existing ones).
    @usableFromInline mutating func growSlots(to capacity: Int) {
        guard capacity > slotCapacity else { return }
        let grown = HugePages.allocate(EventSlot<Event>.self, capacity: capacity)
        grown.moveInitialize(from: slots, count: slotCount)
        slots.deallocate()
        slots = grown
        slotCapacity = capacity
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
/// - Costs: scheduling and delivering an event cost one queue insert and one removal (O(1)
///   expected on the calendar queue, O(log n) on a heap, for n queued entries); everything
///   else the engine does per event is O(1).
/// - The queue of `Engine<Event>` is an `AdaptiveCalendarQueue` (a calendar queue that sizes
///   itself to the pending count: O(1) per event where a heap pays log n cache misses; 1.6-1.9x
///   the heap engine on the hold benchmark at 1,000 and 1,000,000 pending events). Any
///   `EntryPriorityQueue` works (e.g. `QueuedEngine<Event, QuaternaryHeap>`); all deliver
///   exactly the same order.
public typealias Engine<Event: EventKind> = QueuedEngine<Event, AdaptiveCalendarQueue>

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

    /// An engine over `queue` (empty; e.g. a queue pre-sized for the workload).
    public init(start: SimTime, queue: Queue) {
        precondition(queue.count == 0, "the engine needs an empty queue")
        state = .allocate(capacity: 1)
        state.initialize(to: EngineState(start: start, kindCount: Event.kindNames.count, queue: queue))
    }

    deinit {
        state.pointee.release()
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
    ///
    /// - Complexity: O(1).
    @inlinable
    public func processedCount(of kindIndex: Int) -> Int {
        precondition(kindIndex >= 0 && kindIndex < state.pointee.kindCount, "kind index \(kindIndex) out of range")
        return state.pointee.deliveredByKind[kindIndex]
    }

    /// Delivered events per kind name.
    ///
    /// - Complexity: O(k) for k kinds.
    public var processedCountsByKind: [String: Int] {
        Dictionary(uniqueKeysWithValues: zip(Event.kindNames,
                                             UnsafeBufferPointer(start: state.pointee.deliveredByKind, count: state.pointee.kindCount)))
    }

    /// Pre-allocates room for `pending` simultaneously scheduled events.
    ///
    /// - Complexity: O(pending) when the buffers grow.
    public func reserveCapacity(pending: Int) {
        state.pointee.queue.reserveCapacity(pending)
        state.pointee.growSlots(to: pending)
    }

    // MARK: Scheduling

    /// Schedules `event` at time `t` (precondition: `t >= now`).
    ///
    /// - Complexity: one queue insert (O(1) expected on the calendar queue); amortized O(1)
    ///   for the slot.
    @inlinable @discardableResult
    public func schedule(_ event: Event, at t: SimTime, priority: Int32 = 0) -> EventHandle {
        precondition(t >= state.pointee.currentTime, "scheduling at \(t), before now (\(state.pointee.currentTime))")
        return enqueue(event, at: t, priority: priority, period: 0)
    }

    /// Schedules `event` `delay` seconds from now (precondition: `delay >= 0`).
    ///
    /// - Complexity: as `schedule(_:at:priority:)`.
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
    ///
    /// - Complexity: as `schedule(_:at:priority:)`; each occurrence is re-queued with one
    ///   `replaceMin`.
    @inlinable @discardableResult
    public func scheduleRecurring(_ event: Event, first: SimTime, every: Int64, priority: Int32 = 0) -> EventHandle {
        precondition(first >= state.pointee.currentTime, "scheduling at \(first), before now (\(state.pointee.currentTime))")
        precondition(every > 0, "recurrence interval must be positive, got \(every)")
        return enqueue(event, at: first, priority: priority, period: every)
    }

    /// Cancels a scheduled event or a whole recurring series. Cancelling an event that was
    /// already delivered or cancelled is a no-op. Cancelled events are never delivered nor counted.
    ///
    /// - Complexity: O(1); the queue entry is dropped later, and when stale entries outnumber
    ///   live ones the queue is compacted in O(n) (amortized O(1) per cancellation).
    @inlinable
    public func cancel(_ handle: EventHandle) {
        let index = Int(handle.slot)
        guard index < state.pointee.slotCount, state.pointee.slots[index].generation == handle.generation,
              state.pointee.slots[index].queuedSequence != UInt64.max
        else { return }
        freeSlot(index)
        state.pointee.staleCount += 1
        if state.pointee.staleCount > Self.compactionThreshold && state.pointee.staleCount * 2 > state.pointee.queue.count {
            compactQueue()
        }
    }

    /// Whether a handle still refers to a pending event or a running series.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func isPending(_ handle: EventHandle) -> Bool {
        let index = Int(handle.slot)
        return index < state.pointee.slotCount && state.pointee.slots[index].generation == handle.generation
            && state.pointee.slots[index].queuedSequence != UInt64.max
    }

    // MARK: Running

    /// Delivers, in order, every event with time `< end` to `handler`, setting `now` to
    /// each event's time. The handler may schedule, cancel and `stop()` reentrantly.
    /// On return `now == end`, unless the run was stopped (then `now` is the time of the
    /// last delivered event) or the handler threw (the event was counted as delivered).
    /// Precondition: `end >= now`.
    ///
    /// - Complexity: one queue removal per delivered event and per cancelled entry reached.
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
    ///
    /// - Complexity: O(1).
    @inlinable
    public func stop() { state.pointee.stopRequested = true }

    /// Time of the next event to be delivered, if any (drops cancelled entries at the front).
    ///
    /// - Complexity: O(1), plus one queue removal per cancelled entry at the front.
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
        let reused = state.pointee.freeSlot
        if reused != UInt32.max {
            slot = reused
            state.pointee.freeSlot = state.pointee.slots[Int(reused)].nextFree
            state.pointee.slots[Int(reused)].event = event
            state.pointee.slots[Int(reused)].queuedSequence = sequence
            state.pointee.slots[Int(reused)].period = period
        } else {
            let count = state.pointee.slotCount
            precondition(count < Int(UInt32.max) - 1, "too many simultaneously scheduled events")
            if count == state.pointee.slotCapacity { state.pointee.growSlots(to: Swift.max(16, 2 * count)) }
            slot = UInt32(truncatingIfNeeded: count)
            (state.pointee.slots + count).initialize(to: EventSlot(event: event, queuedSequence: sequence, period: period, generation: 0))
            state.pointee.slotCount = count + 1
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
            let kind = event.kindIndex
            precondition(kind >= 0 && kind < state.pointee.kindCount, "kind index \(kind) out of range")
            state.pointee.deliveredByKind[kind] += 1
            // Start loading the next event's slot now, so the miss overlaps the handler's work.
            if let following = state.pointee.queue.min {
                ensim_prefetch(UnsafeRawPointer(state.pointee.slots + Int(following.slot)))
                state.pointee.queue.prefetchMin()
            }
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
        state.pointee.slots[index].nextFree = state.pointee.freeSlot
        state.pointee.freeSlot = UInt32(truncatingIfNeeded: index)
        state.pointee.liveCount -= 1
    }

    @usableFromInline
    func compactQueue() {
        let slots = state.pointee.slots   // the table's address: the closure does not access `state`
        state.pointee.queue.removeAll { slots[Int($0.slot)].queuedSequence != $0.sequence }
        state.pointee.staleCount = 0
    }
}
