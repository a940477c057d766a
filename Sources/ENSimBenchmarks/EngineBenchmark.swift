import EventEngine
import Foundation
import GSL

/// The classic hold model on the event engine.
///
/// `pending` events are queued; handling one schedules one more at `now + increment`, so
/// the queue size stays constant. Increments are round(Exp(mean)) whole seconds (SimTime is
/// an integer); a large mean (10^9 s) keeps exact time ties rare even with a million pending
/// events. Increments come from GSL and are pre-drawn into a table before timing (reused
/// cyclically when the run is longer than the table), so the figure is the engine's
/// throughput, not the random number generator's.
public struct EngineBenchmark {
    /// Pending-event counts to measure.
    public var pending: [Int]
    /// Timed events per configuration and repetition.
    public var events: Int
    /// Repetitions per configuration; the fastest is reported (the machine is shared).
    public var repetitions: Int
    /// Mean increment in seconds.
    public var mean: Double
    /// Seed of the GSL stream for the increments.
    public var seed: UInt64
    /// SimPy's hold-model script, or nil not to run the Python reference.
    public var simpyScript: String?
    /// Timed events for SimPy (it is slow).
    public var simpyEvents: Int
    /// Also compare the bare queues (calendar queue, 4-ary heap, swift-collections' Heap).
    public var queueComparison: Bool

    /// Increments table size cap (2^22 entries, 32 MB).
    public static let maximumTableSize = 1 << 22

    public init(pending: [Int], events: Int, repetitions: Int, mean: Double, seed: UInt64, simpyScript: String?,
                simpyEvents: Int, queueComparison: Bool) {
        self.pending = pending
        self.events = events
        self.repetitions = repetitions
        self.mean = mean
        self.seed = seed
        self.simpyScript = simpyScript
        self.simpyEvents = simpyEvents
        self.queueComparison = queueComparison
    }

    public func run() throws -> BenchmarkReport {
        let simpy = simpyScript.map(SimPyReference.init(script:))
        let loadBefore = Machine.loadAverage
        var configurations: [[String: Any]] = []
        var comparisons: [[String: Any]] = []
        for pendingCount in pending {
            let warmup = pendingCount
            let increments = drawIncrements(count: pendingCount + warmup + events)
            let timed = engineFigures(pending: pendingCount, warmup: warmup, increments: increments)
            var configuration = timed.fields
            if let simpy, simpy.isAvailable {
                let reference = try simpy.run(pending: pendingCount, events: simpyEvents, mean: mean, seed: seed)
                configuration["simpy_events"] = simpyEvents
                configuration["simpy_events_per_second"] = reference
                configuration["ratio_to_simpy"] = Double(events) / timed.best / reference
                configuration["heap_engine_ratio_to_simpy"] = Double(events) / timed.heapBest / reference
            }
            configurations.append(configuration)
            if queueComparison {
                comparisons.append(queueFigures(pending: pendingCount, warmup: warmup, increments: increments))
            }
        }

        var result: [String: Any] = [
            "benchmark": "engine hold model",
            "model": "pending events; each handled event schedules one more at now + round(Exp(mean)) s",
            "mean_increment_seconds": mean,
            "increments": "GSL RandomStream(seed: \(seed), stream: \"bench.engine.hold\") exponential, rounded, "
                + "pre-drawn before timing (table of at most \(Self.maximumTableSize), reused cyclically)",
            "repetitions": repetitions,
            "reported": "fastest repetition",
            "queue": "Engine = QueuedEngine over AdaptiveCalendarQueue (Brown's calendar queue sized to the pending count, "
                + "linked nodes in a pool, huge pages); heap_engine = the same engine over QuaternaryHeap (4-ary, 24-byte entries); "
                + "payloads in a slot table, next event's slot and node prefetched",
            "build": Machine.buildConfiguration,
            "processors": ProcessInfo.processInfo.activeProcessorCount,
            "configurations": configurations,
            "targets": ["events_per_second_at_1000_pending": 10e6, "events_per_second_at_1000000_pending": 3e6,
                        "ratio_to_simpy": 20],
        ]
        if let loadBefore, let loadAfter = Machine.loadAverage {
            result["load_average"] = "\(loadBefore) at start, \(loadAfter) at end (1, 5, 15 min; 2 cores shared with other jobs)"
        }
        if queueComparison { result["queue_comparison"] = comparisons }
        if let simpy {
            result["simpy"] = simpy.isAvailable
                ? "\(simpy.version) (callback style, \(simpyEvents) timed events, 1000 warm-up)"
                : "unavailable: \(simpy.unavailableReason)"
        } else {
            result["simpy"] = "not run (--no-python-reference)"
        }
        return BenchmarkReport(result)
    }

    /// The default engine (`Engine`, over the self-sizing calendar queue) and the same engine over
    /// the 4-ary heap (the default before). Repetitions alternate between them, so a change of
    /// machine load during the run affects both alike.
    func engineFigures(pending: Int, warmup: Int, increments: [Int64]) -> (fields: [String: Any], best: Double, heapBest: Double) {
        var samples: [Double] = [], heap: [Double] = []
        for _ in 0..<repetitions {
            samples.append(HoldModel.engineSeconds(pending: pending, warmup: warmup, events: events, increments: increments))
            heap.append(HoldModel.engineSeconds(QueuedEngine<HoldEvent, QuaternaryHeap>(start: 0), pending: pending,
                                                warmup: warmup, events: events, increments: increments))
        }
        let best = samples.min() ?? .nan
        let heapBest = heap.min() ?? .nan
        let fields: [String: Any] = [
            "heap_engine_events_per_second": Double(events) / heapBest,
            "heap_engine_all_events_per_second": heap.map { Double(events) / $0 },
            "speedup_over_heap_engine": heapBest / best,
            "pending": pending,
            "events": events,
            "warmup_events": warmup,
            "seconds": best,
            "events_per_second": Double(events) / best,
            "all_events_per_second": samples.map { Double(events) / $0 },
        ]
        return (fields, best, heapBest)
    }

    /// The same hold steps on the bare queues, half as many events.
    func queueFigures(pending: Int, warmup: Int, increments: [Int64]) -> [String: Any] {
        let queueEvents = events / 2
        func fastest<Queue: EntryPriorityQueue>(_ type: Queue.Type) -> Double {
            (0..<repetitions).map { _ in
                HoldModel.queueSeconds(type, pending: pending, warmup: warmup, events: queueEvents, increments: increments)
            }.min() ?? .nan
        }
        let quaternary = fastest(QuaternaryHeap.self)
        let collections = fastest(CollectionsHeapQueue.self)
        let adaptiveQueue = fastest(AdaptiveCalendarQueue.self)
        return [
            "adaptive_calendar_queue_events_per_second": Double(queueEvents) / adaptiveQueue,
            "pending": pending,
            "events": queueEvents,
            "quaternary_heap_events_per_second": Double(queueEvents) / quaternary,
            "collections_heap_events_per_second": Double(queueEvents) / collections,
            "quaternary_speedup": collections / quaternary,
        ]
    }

    /// Rounded exponential increments, table length a power of two so indexing is a mask.
    func drawIncrements(count: Int) -> [Int64] {
        var size = 1
        while size < min(count, Self.maximumTableSize) { size *= 2 }
        let rng = RandomStream(seed: seed, stream: "bench.engine.hold")
        return (0..<size).map { _ in Int64(rng.exponential(mean: mean).rounded()) }
    }
}
