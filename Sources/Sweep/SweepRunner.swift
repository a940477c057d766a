import Foundation
import Reporting
import Scenario
import SimulationCore

/// Runs a sweep into its folder: skips runs already complete (same scenario hash), redoes incomplete
/// ones, retries a failed run once, then writes sweep.csv, sweep_summary.csv, sweep_differences.csv and failures.csv.
public enum SweepRunner {
    public struct Outcome: Sendable {
        public let folder: URL
        public let total: Int
        public let skipped: Int
        public let ran: Int
        /// Runs that failed twice, with the last error.
        public let failures: [(id: String, error: String)]
        public let seconds: Double
        /// The runs' own time, summed over the runs that ran now (each manifest's wall_seconds: from
        /// `ensim run` starting its work to its results being ready). With one worker, `seconds` minus
        /// this, over `ran`, is the overhead per run: process start, writing files, collection.
        public let runSeconds: Double
    }

    public struct SweepError: Error, CustomStringConvertible {
        public let description: String
    }

    /// - Parameter log: one line per event (progress, retries), for a terminal or a CI log.
    public static func run(_ plan: SweepPlan, folder: SweepFolder, executor: some SweepExecutor, version: String,
                           log: @escaping @Sendable (String) -> Void) throws -> Outcome {
        let started = Date()
        try folder.write("manifest.json", JSONReport.encode(SweepFolder.manifest(plan, version: version)))
        var pending: [SweepJob] = []
        for job in plan.jobs {
            try folder.writeScenario(job)
            if folder.isComplete(job) { continue }
            try folder.clear(job)
            pending.append(job)
        }
        let skipped = plan.jobs.count - pending.count
        let skippedIDs = Set(plan.jobs.map(\.id)).subtracting(pending.map(\.id))
        log("sweep \(plan.sweep.name): \(plan.jobs.count) runs, \(skipped) already complete, \(pending.count) to run (\(executor.label)) in \(folder.url.path)")

        let progress = Progress(total: plan.jobs.count, done: skipped, concurrency: executor.concurrency, log: log)
        var failures: [String: String] = [:]
        for attempt in 1...2 where !pending.isEmpty {
            if attempt == 2 { log("retrying \(pending.count) failed run(s) once: " + pending.map(\.id).joined(separator: ", ")) }
            let failed = FailureList()
            try executor.execute(pending, in: folder) { job, error in
                if let error {
                    failed.add(job.id, error)
                    progress.failed(job.id, error, final: attempt == 2)
                } else {
                    progress.finished(job.id)
                }
            }
            failures = failed.all
            pending = pending.filter { failures[$0.id] != nil }
            for job in pending { try folder.clear(job) }
        }

        let ranNow = Set(plan.jobs.map(\.id)).subtracting(skippedIDs)
        var results: [String: [ResultTable.Cell?]] = [:]
        var runSeconds = 0.0
        for job in plan.jobs where failures[job.id] == nil {
            let summary = folder.runURL(job).appendingPathComponent("summary.json").path
            guard folder.isComplete(job), let data = FileManager.default.contents(atPath: summary) else {
                failures[job.id] = failures[job.id] ?? "the run folder is missing or incomplete after the run"
                continue
            }
            if ranNow.contains(job.id) { runSeconds += Self.wallSeconds(folder.runURL(job)) }
            do {
                results[job.id] = try SweepTables.values(summaryJSON: data, path: summary, metrics: plan.sweep.metrics)
            } catch {
                throw SweepError(description: "\(error)")
            }
        }
        try folder.write("sweep.csv", CSVReport.encode(SweepTables.runs(plan, results: results)))
        try folder.write("sweep_summary.csv", CSVReport.encode(SweepTables.summary(plan, results: results)))
        if let differences = SweepTables.differences(plan, results: results) {
            try folder.write("sweep_differences.csv", CSVReport.encode(differences))
        }
        let failed = plan.jobs.compactMap { job in failures[job.id].map { (id: job.id, error: $0) } }
        if failed.isEmpty {
            folder.remove("failures.csv")
        } else {
            var table = ResultTable(columns: ["run_id", "error"])
            for failure in failed { table.append([.text(failure.id), .text(failure.error)]) }
            try folder.write("failures.csv", CSVReport.encode(table))
        }
        return Outcome(folder: folder.url, total: plan.jobs.count, skipped: skipped, ran: plan.jobs.count - skipped,
                       failures: failed, seconds: Date().timeIntervalSince(started), runSeconds: runSeconds)
    }

    static func wallSeconds(_ run: URL) -> Double {
        guard let data = FileManager.default.contents(atPath: run.appendingPathComponent("manifest.json").path),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return 0 }
        return (manifest["wall_seconds"] as? NSNumber)?.doubleValue ?? 0
    }
}

/// Failed runs of one pass, gathered from the executor's threads.
final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String: String] = [:]

    func add(_ id: String, _ error: String) {
        lock.lock()
        errors[id] = error
        lock.unlock()
    }

    var all: [String: String] {
        lock.lock()
        defer { lock.unlock() }
        return errors
    }
}

/// "[5/8] p01-r2 done; 0 failed; ETA 4.0 s": one line per finished run.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let skipped: Int
    private var done: Int
    private var failures = 0
    private let concurrency: Int
    private let started = Date()
    private let log: @Sendable (String) -> Void

    init(total: Int, done: Int, concurrency: Int, log: @escaping @Sendable (String) -> Void) {
        self.total = total
        self.done = done
        skipped = done
        self.concurrency = concurrency
        self.log = log
    }

    func finished(_ id: String) {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        log("[\(done)/\(total)] \(id) done; \(failures) failed; ETA \(eta())")
    }

    func failed(_ id: String, _ error: String, final: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if final {
            failures += 1
            done += 1
        }
        log("[\(done)/\(total)] \(id) failed\(final ? " again, giving up" : ", will retry"): \(error)")
    }

    private func eta() -> String {
        let ran = done - skipped
        guard ran > 0, done < total else { return done >= total ? "0 s" : "?" }
        let perRun = Date().timeIntervalSince(started) / Double(ran)
        return Self.seconds(perRun * Double(total - done))
    }

    static func seconds(_ s: Double) -> String {
        s < 60 ? String(format: "%.1f s", s) : String(format: "%dm%02ds", Int(s) / 60, Int(s) % 60)
    }
}
