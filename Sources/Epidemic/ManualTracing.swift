import EventEngine
import GSL
import World

/// One direction of a day's contact that an interview of `person` would name: `other`.
struct TraceableContact: Comparable {
    var person: Int32
    var other: Int32

    static func < (x: Self, y: Self) -> Bool { (x.person, x.other) < (y.person, y.other) }
}

/// Whether a person, once a case, would name a contact: one uniform draw per ordered pair
/// ("epidemic.manual_trace", person and other), named when it falls below the traceable share of
/// the layer they met in. Drawn as the contact happens, so only contacts that would be named are
/// kept; since the draw does not depend on the day or layer, a pair met in several layers is
/// named with the highest of their shares. One per contact shard (its stream is reseeded).
final class ContactNamer {
    private let shares: [Double]
    private let family: StreamFamily
    private let rng: RandomStream
    private(set) var named: [TraceableContact] = []

    init(shares: [Double], seed: UInt64) {
        self.shares = shares
        family = StreamFamily(seed: seed, stream: "epidemic.manual_trace")
        rng = RandomStream(seed: seed, stream: "epidemic.manual_trace", generator: .taus2)
    }

    func record(_ a: Int32, _ b: Int32, layer: ContactLayer) {
        let share = shares[layer.rawValue]
        guard share > 0 else { return }
        if share >= 1 || draw(a, b) < share { named.append(TraceableContact(person: a, other: b)) }
        if share >= 1 || draw(b, a) < share { named.append(TraceableContact(person: b, other: a)) }
    }

    private func draw(_ person: Int32, _ other: Int32) -> Double {
        rng.reseed(family, index: UInt64(UInt32(bitPattern: person)) << 32 | UInt64(UInt32(bitPattern: other)))
        return rng.uniform()
    }
}

/// The health office's manual contact tracing, after OpenABM-Covid19: each positive is
/// interviewed `delay_days` after the result, names the contacts of their infectious window
/// (from `lookback_days` before onset or test), each reached with the layer's traceable share;
/// interviews and calls are limited per day by the staff, and what does not fit waits in FIFO
/// queues (the backlog is reported). Whether a contact is named is drawn by `ContactNamer` from
/// the pair's own stream, so it depends neither on queue order nor on threads.
final class ManualTracing {
    struct Interview {
        var person: Int32
        var due: SimTime
        /// First day index whose contacts count.
        var fromDay: Int
    }

    struct Call {
        var person: Int32
        var interviewDay: Int
    }

    /// What one day of tracing did.
    struct Day {
        var interviews = 0
        var calls: [Int32] = []
        var interviewBacklog = 0
        var callBacklog = 0
        /// Calls dropped unmade: their interview was `expiryDays` ago or more.
        var expired = 0
    }

    /// Days of contacts kept: older ones are forgotten by the time an interview asks.
    static let memoryDays = 14

    let parameters: ManualTracingParameters
    /// A call not made within this many days of its interview is dropped (its quarantine would be over).
    private let expiryDays: Int
    private let capacity: (interviews: Int, calls: Int)
    /// Each kept day's named contacts, sorted and without repeats; by day index.
    private var contacts: [Int: [TraceableContact]] = [:]
    private var interviews: [Interview] = []
    private var calls: [Call] = []
    private var callsHead = 0

    init(_ parameters: ManualTracingParameters, population: Int, expiryDays: Int, seed: UInt64) {
        self.parameters = parameters
        self.expiryDays = max(1, expiryDays)
        capacity = parameters.capacity(population: population)
        self.seed = seed
    }

    private let seed: UInt64

    /// A namer for one contact shard.
    func namer() -> ContactNamer { ContactNamer(shares: parameters.traceableShare, seed: seed) }

    /// Keeps the day's named contacts (from every shard, in any order) and forgets the oldest day.
    func keep(day: Int, _ found: [TraceableContact]) {
        var named = found
        named.sort()
        var unique: [TraceableContact] = []
        unique.reserveCapacity(named.count)
        for c in named where unique.last != c { unique.append(c) }
        contacts[day] = unique
        contacts[day - Self.memoryDays] = nil
    }

    /// Bytes of the kept contacts (for the run's memory report).
    var storeBytes: Int { contacts.values.reduce(0) { $0 + $1.count * MemoryLayout<TraceableContact>.stride } }

    func interview(_ person: Int32, due: SimTime, fromDay: Int) {
        interviews.append(Interview(person: person, due: due, fromDay: fromDay))
    }

    /// Runs day `d`: interviews due before `end`, oldest first, up to the day's capacity, then
    /// calls in the order the interviews named them, up to the calls' capacity. `skip` tells
    /// contacts not to call (already known positive).
    func run(day d: Int, end: SimTime, skip: (Int32) -> Bool) -> Day {
        var today = Day()
        interviews.sort { ($0.due, $0.person) < ($1.due, $1.person) }
        var done = 0
        while done < interviews.count, done < capacity.interviews, interviews[done].due < end {
            named(by: interviews[done], today: d)
            done += 1
        }
        interviews.removeFirst(done)
        today.interviews = done
        today.interviewBacklog = interviews.lazy.filter { $0.due < end }.count
        while callsHead < calls.count, calls[callsHead].interviewDay <= d - expiryDays {
            callsHead += 1
            today.expired += 1
        }
        let callable = min(capacity.calls, calls.count - callsHead)
        for call in calls[callsHead..<callsHead + callable] where !skip(call.person) { today.calls.append(call.person) }
        callsHead += callable
        if callsHead > 4096 && callsHead * 2 > calls.count {
            calls.removeFirst(callsHead)
            callsHead = 0
        }
        today.callBacklog = calls.count - callsHead
        return today
    }

    /// Queues the calls to the contacts an interview names: each distinct named contact of the
    /// window once, in id order.
    private func named(by interview: Interview, today d: Int) {
        var others: Set<Int32> = []
        for day in max(interview.fromDay, d - Self.memoryDays + 1)...max(d, interview.fromDay) {
            guard let list = contacts[day] else { continue }
            var i = lowerBound(list, interview.person)
            while i < list.count, list[i].person == interview.person {
                others.insert(list[i].other)
                i += 1
            }
        }
        for other in others.sorted() { calls.append(Call(person: other, interviewDay: d)) }
    }

    private func lowerBound(_ list: [TraceableContact], _ person: Int32) -> Int {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].person < person { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
