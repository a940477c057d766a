import ArgumentParser
import EventEngine
import Foundation
import GSL

/// `ensim bench engine`: the classic hold model on the event engine.
///
/// `pending` events are queued; handling one schedules one more at `now + increment`, so
/// the queue size stays constant. Increments are round(Exp(mean)) whole seconds (SimTime is
/// an integer); the large default mean (10^9 s) keeps exact time ties rare even with a
/// million pending events. Increments come from GSL and are pre-drawn into a table before
/// timing (reused cyclically when the run is longer than the table), so the figure is the
/// engine's throughput, not the random number generator's.
struct EngineBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine",
        abstract: "Hold-model throughput of the event engine, with SimPy as reference when available."
    )

    @OptionGroup var output: BenchOutputOptions

    @Option(parsing: .upToNextOption, help: "Pending-event counts to measure.")
    var pending: [Int] = [1_000, 1_000_000]

    @Option(help: "Timed events per configuration and repetition.")
    var events = 20_000_000

    @Option(help: "Repetitions per configuration; the fastest is reported (the machine is shared).")
    var repetitions = 3

    @Option(help: "Mean increment in seconds.")
    var mean = 1e9

    @Option(help: "Seed of the GSL stream for the increments.")
    var seed: UInt64 = 1

    @Flag(inversion: .prefixedNo, help: "Also run the hold model in SimPy (Results/benchmarks/simpy_hold.py) when python3 has simpy.")
    var pythonReference = true

    @Option(help: "Timed events for SimPy (it is slow).")
    var simpyEvents = 200_000

    @Option(help: "Path of the SimPy hold-model script.")
    var simpyScript = "Results/benchmarks/simpy_hold.py"

    @Flag(inversion: .prefixedNo, help: "Also compare the queues (calendar queue, 4-ary heap, swift-collections' Heap) bare.")
    var queueComparison = true

    /// Increments table size cap (2^22 entries, 32 MB).
    static let maximumTableSize = 1 << 22

    func validate() throws {
        guard !pending.isEmpty, pending.allSatisfy({ $0 > 0 }) else { throw ValidationError("--pending needs positive counts") }
        guard events > 0, repetitions > 0, simpyEvents > 0 else { throw ValidationError("counts must be positive") }
        guard mean >= 1 else { throw ValidationError("--mean must be at least 1 second") }
    }

    func run() throws {
        let simpy = pythonReference ? SimPyReference(script: simpyScript) : nil
        let loadBefore = Self.loadAverage
        var configurations: [[String: Any]] = []
        var comparisons: [[String: Any]] = []
        for pendingCount in pending {
            let warmup = pendingCount
            let increments = drawIncrements(count: pendingCount + warmup + events)
            // The default engine (`Engine`, over the self-sizing calendar queue) and the same engine
            // over the 4-ary heap (the default before). Repetitions alternate between them, so a
            // change of machine load during the run affects both alike.
            var samples: [Double] = [], heap: [Double] = []
            for _ in 0..<repetitions {
                samples.append(HoldModel.engineSeconds(pending: pendingCount, warmup: warmup, events: events,
                                                       increments: increments))
                heap.append(HoldModel.engineSeconds(QueuedEngine<HoldEvent, QuaternaryHeap>(start: 0),
                                                    pending: pendingCount, warmup: warmup, events: events,
                                                    increments: increments))
            }
            let best = samples.min()!
            let heapBest = heap.min()!
            var configuration: [String: Any] = [
                "heap_engine_events_per_second": Double(events) / heapBest,
                "heap_engine_all_events_per_second": heap.map { Double(events) / $0 },
                "speedup_over_heap_engine": heapBest / best,
                "pending": pendingCount,
                "events": events,
                "warmup_events": warmup,
                "seconds": best,
                "events_per_second": Double(events) / best,
                "all_events_per_second": samples.map { Double(events) / $0 },
            ]
            if let simpy, simpy.isAvailable {
                let reference = try simpy.run(pending: pendingCount, events: simpyEvents, mean: mean, seed: seed)
                configuration["simpy_events"] = simpyEvents
                configuration["simpy_events_per_second"] = reference
                configuration["ratio_to_simpy"] = Double(events) / best / reference
                configuration["heap_engine_ratio_to_simpy"] = Double(events) / heapBest / reference
            }
            configurations.append(configuration)

            if queueComparison {
                let queueEvents = events / 2
                let quaternary = (0..<repetitions).map { _ in
                    HoldModel.queueSeconds(QuaternaryHeap.self, pending: pendingCount, warmup: warmup,
                                           events: queueEvents, increments: increments)
                }.min()!
                let collections = (0..<repetitions).map { _ in
                    HoldModel.queueSeconds(CollectionsHeapQueue.self, pending: pendingCount, warmup: warmup,
                                           events: queueEvents, increments: increments)
                }.min()!
                let adaptiveQueue = (0..<repetitions).map { _ in
                    HoldModel.queueSeconds(AdaptiveCalendarQueue.self, pending: pendingCount, warmup: warmup,
                                           events: queueEvents, increments: increments)
                }.min()!
                comparisons.append([
                    "adaptive_calendar_queue_events_per_second": Double(queueEvents) / adaptiveQueue,
                    "pending": pendingCount,
                    "events": queueEvents,
                    "quaternary_heap_events_per_second": Double(queueEvents) / quaternary,
                    "collections_heap_events_per_second": Double(queueEvents) / collections,
                    "quaternary_speedup": collections / quaternary,
                ])
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
            "build": Self.buildConfiguration,
            "processors": ProcessInfo.processInfo.activeProcessorCount,
            "configurations": configurations,
            "targets": ["events_per_second_at_1000_pending": 10e6, "events_per_second_at_1000000_pending": 3e6,
                        "ratio_to_simpy": 20],
        ]
        if let loadBefore, let loadAfter = Self.loadAverage {
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
        try emitBenchResult(result, options: output)
    }

    /// Rounded exponential increments, table length a power of two so indexing is a mask.
    func drawIncrements(count: Int) -> [Int64] {
        var size = 1
        while size < min(count, Self.maximumTableSize) { size *= 2 }
        let rng = RandomStream(seed: seed, stream: "bench.engine.hold")
        return (0..<size).map { _ in Int64(rng.exponential(mean: mean).rounded()) }
    }

    /// The first three fields of /proc/loadavg (Linux), e.g. "2.10 2.25 1.90".
    static var loadAverage: String? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    static var buildConfiguration: String {
        #if DEBUG
        "debug (numbers not representative; use swift build -c release)"
        #else
        "release"
        #endif
    }
}

/// The benchmark's event: a payload like a real simulation's (which entity), one kind.
struct HoldEvent: EventKind {
    var entity: UInt32
    var kindIndex: Int { 0 }
    static let kindNames = ["hold"]
}

enum HoldModel {
    /// Seconds for `events` hold steps on the default engine (`Engine`), after `warmup` untimed steps.
    static func engineSeconds(pending: Int, warmup: Int, events: Int, increments: [Int64]) -> Double {
        engineSeconds(Engine<HoldEvent>(start: 0), pending: pending, warmup: warmup, events: events, increments: increments)
    }

    static func engineSeconds<Q: EntryPriorityQueue>(_ engine: QueuedEngine<HoldEvent, Q>, pending: Int, warmup: Int,
                                                     events: Int, increments: [Int64]) -> Double {
        engine.reserveCapacity(pending: pending)
        return increments.withUnsafeBufferPointer { increments in
            let mask = increments.count - 1
            var next = 0
            for entity in 0..<pending {
                engine.schedule(HoldEvent(entity: UInt32(truncatingIfNeeded: entity)), at: increments[next & mask])
                next &+= 1
            }
            // Runs hold steps until `target` events have been handled in total.
            func runHolds(untilProcessed target: Int) {
                engine.run(until: .max) { event in
                    engine.schedule(event, after: increments[next & mask])
                    next &+= 1
                    if engine.processedCount == target { engine.stop() }
                }
            }
            if warmup > 0 { runHolds(untilProcessed: warmup) }
            let target = engine.processedCount + events
            let clock = ContinuousClock()
            let started = clock.now
            runHolds(untilProcessed: target)
            let elapsed = clock.now - started
            precondition(engine.processedCount == target && engine.pendingCount == pending, "hold model went wrong")
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
    }

    /// The same hold steps on a bare priority queue (pop the minimum, push one later).
    static func queueSeconds<Queue: EntryPriorityQueue>(_ type: Queue.Type, pending: Int, warmup: Int, events: Int,
                                                        increments: [Int64], make: () -> Queue = { Queue() }) -> Double {
        var queue = make()
        return increments.withUnsafeBufferPointer { increments in
            let mask = increments.count - 1
            var next = 0
            var sequence: UInt64 = 0
            for slot in 0..<pending {
                queue.insert(QueueEntry(time: increments[next & mask], priority: 0, sequence: sequence,
                                        slot: UInt32(truncatingIfNeeded: slot)))
                next &+= 1
                sequence &+= 1
            }
            let clock = ContinuousClock()
            var started = clock.now
            for step in 0..<(warmup + events) {
                if step == warmup { started = clock.now }
                let top = queue.removeMin().unsafelyUnwrapped
                queue.insert(QueueEntry(time: top.time + increments[next & mask], priority: 0, sequence: sequence,
                                        slot: top.slot))
                next &+= 1
                sequence &+= 1
            }
            let elapsed = clock.now - started
            precondition(queue.count == pending)
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
    }
}

/// Runs Results/benchmarks/simpy_hold.py through python3, if simpy is importable.
struct SimPyReference {
    let script: String
    let isAvailable: Bool
    let unavailableReason: String
    let version: String

    init(script: String) {
        self.script = script
        if !FileManager.default.fileExists(atPath: script) {
            (isAvailable, unavailableReason, version) = (false, "script \(script) not found (run from the repository root)", "")
        } else if let output = try? Self.python(["-c", "import simpy; print(simpy.__version__)"]), output.status == 0 {
            (isAvailable, unavailableReason, version) = (true, "", "simpy " + output.text.trimmingCharacters(in: .whitespacesAndNewlines))
        } else {
            (isAvailable, unavailableReason, version) = (false, "python3 cannot import simpy (pip install simpy)", "")
        }
    }

    /// SimPy's events per second for the same hold model.
    func run(pending: Int, events: Int, mean: Double, seed: UInt64) throws -> Double {
        let output = try Self.python([script, "--pending", "\(pending)", "--events", "\(events)",
                                      "--mean", "\(mean)", "--seed", "\(seed)"])
        guard output.status == 0,
              let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any],
              let rate = object["events_per_second"] as? Double
        else { throw ValidationError("SimPy reference failed (exit \(output.status)): \(output.text)") }
        return rate
    }

    static func python(_ arguments: [String]) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
