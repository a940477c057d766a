import Foundation

/// Runs a sweep's jobs somewhere. Each job becomes the ordinary run folder `runs/<id>/` of the sweep
/// folder (written by `ensim run`, so a run folder from a sweep is like any other); `finished` is called
/// once per job, from any thread, with nil or the error that stopped it.
public protocol SweepExecutor {
    /// For logs: "local, 2 workers".
    var label: String { get }
    /// How many runs go at once (for the ETA).
    var concurrency: Int { get }
    /// - Throws: when the executor itself cannot work (no scheduler, no Dask): the sweep stops, complete runs stay.
    func execute(_ jobs: [SweepJob], in folder: SweepFolder, finished: @escaping @Sendable (SweepJob, String?) -> Void) throws
}

/// `N` runs at a time on this machine, each an `ensim run` process (a crash or a kill stops one run only).
public struct LocalExecutor: SweepExecutor, Sendable {
    public let ensim: URL
    public let workers: Int
    public let threadsPerRun: Int

    public init(ensim: URL, workers: Int, threadsPerRun: Int) {
        self.ensim = ensim
        self.workers = max(1, workers)
        self.threadsPerRun = max(1, threadsPerRun)
    }

    public var label: String { "local, \(workers) worker\(workers == 1 ? "" : "s") × \(threadsPerRun) thread\(threadsPerRun == 1 ? "" : "s")" }
    public var concurrency: Int { workers }

    public func execute(_ jobs: [SweepJob], in folder: SweepFolder, finished: @escaping @Sendable (SweepJob, String?) -> Void) {
        // One thread per worker, each mostly waiting on its child: Dispatch's pool would run no more
        // at once than there are cores, whatever --workers says.
        let next = Counter()
        let group = DispatchGroup()
        for _ in 0..<min(workers, jobs.count) {
            group.enter()
            Thread {
                while let index = next.take(below: jobs.count) {
                    let job = jobs[index]
                    finished(job, run(job, in: folder))
                }
                group.leave()
            }.start()
        }
        group.wait()
    }

    /// nil when the run completed, else the reason (its last lines on stderr).
    func run(_ job: SweepJob, in folder: SweepFolder) -> String? {
        let arguments = ["run", folder.scenarioURL(job).path, "--out", folder.runURL(job).path, "--quiet", "--threads", String(threadsPerRun)]
        return Self.runProcess(ensim, arguments)
    }

    /// Runs a process to its end; nil on exit 0, else its exit status and the tail of its stderr.
    static func runProcess(_ executable: URL, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        // Foundation's waitUntilExit polls every 50 ms on Linux: a tenth of a tiny run. Be told instead.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do { try ChildProcesses.start(process) } catch is CancellationError {
            return "interrupted before it started"
        } catch {
            return "cannot start \(executable.path): \(error.localizedDescription)"
        }
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        exited.wait()
        ChildProcesses.remove(process.processIdentifier)
        if process.terminationReason == .exit, process.terminationStatus == 0 { return nil }
        let how = process.terminationReason == .uncaughtSignal ? "killed by signal \(process.terminationStatus)" : "exit \(process.terminationStatus)"
        return "\(how): " + tail(data)
    }

    static func tail(_ data: Data) -> String {
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).suffix(3)
        return lines.isEmpty ? "(no message)" : lines.joined(separator: " | ")
    }
}

/// Hands out indices 0, 1, 2, … to worker threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}
