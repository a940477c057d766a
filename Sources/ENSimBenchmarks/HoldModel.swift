import EventEngine
import Foundation

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
            return Machine.seconds(elapsed)
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
            return Machine.seconds(elapsed)
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
        else { throw BenchmarkError("SimPy reference failed (exit \(output.status)): \(output.text)") }
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
