import Foundation
import Reporting

/// Runs a sweep's jobs on a Dask distributed cluster through `python3 -m ensim_dask` (python/ensim_dask):
/// one task per run, each running `ensim run` on a worker. Without a shared file system the task returns
/// the run's files, which the client writes under `incoming/<id>/` and this executor moves into
/// `runs/<id>/` through a `RunFolder` (so the folder appears complete or not at all); with
/// `sharedResults` the workers write `runs/<id>/` themselves.
public struct DaskExecutor: SweepExecutor, Sendable {
    public let scheduler: String
    /// The `ensim` the workers run: a name on their PATH or an absolute path.
    public let workerEnsim: String
    public let threadsPerRun: Int
    public let sharedResults: Bool
    public let python: String
    /// The folder holding the `ensim_dask` package (prepended to PYTHONPATH), nil when it is installed.
    public let packageFolder: URL?
    /// Runs in flight at once (for the ETA): the cluster decides; this is a guess.
    public let concurrency: Int

    public init(scheduler: String, workerEnsim: String, threadsPerRun: Int, sharedResults: Bool, python: String = "python3",
                packageFolder: URL?, concurrency: Int = 2) {
        self.scheduler = scheduler
        self.workerEnsim = workerEnsim
        self.threadsPerRun = max(1, threadsPerRun)
        self.sharedResults = sharedResults
        self.python = python
        self.packageFolder = packageFolder
        self.concurrency = max(1, concurrency)
    }

    public var label: String { "dask at \(scheduler)\(sharedResults ? ", shared results" : "")" }

    public static let installHint = "install the Python packages: python3 -m pip install dask distributed (or bash .ci/setup)"

    public struct ClientError: Error, CustomStringConvertible {
        public let description: String
    }

    public func execute(_ jobs: [SweepJob], in folder: SweepFolder, finished: @escaping @Sendable (SweepJob, String?) -> Void) throws {
        let byID = Dictionary(uniqueKeysWithValues: jobs.map { ($0.id, $0) })
        var reported: Set<String> = []
        let fail = { (message: String) in
            for job in jobs where !reported.contains(job.id) {
                reported.insert(job.id)
                finished(job, message)
            }
        }
        let incoming = folder.url.appendingPathComponent("incoming")
        let jobsFile = folder.url.appendingPathComponent("dask-jobs.json")
        let list: [[String: Any]] = jobs.map { ["id": $0.id, "scenario": String(decoding: $0.scenario, as: UTF8.self)] }
        do {
            let data = try JSONSerialization.data(withJSONObject: ["threads": threadsPerRun, "jobs": list], options: [.sortedKeys])
            try AtomicFile.write(data, to: jobsFile)
        } catch {
            throw ClientError(description: "cannot write \(jobsFile.path): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: jobsFile) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = [python, "-m", "ensim_dask", "--scheduler", scheduler, "--jobs", jobsFile.path, "--ensim", workerEnsim]
        arguments += sharedResults ? ["--shared-results", folder.runsURL.path] : ["--incoming", incoming.path]
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        if let packageFolder {
            environment["PYTHONPATH"] = ([packageFolder.path] + (environment["PYTHONPATH"].map { [$0] } ?? [])).joined(separator: ":")
        }
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let errorText = ErrorTail()
        errors.fileHandleForReading.readabilityHandler = { handle in errorText.append(handle.availableData) }
        do { try ChildProcesses.start(process) } catch is CancellationError {
            throw ClientError(description: "interrupted before the Dask client started")
        } catch {
            throw ClientError(description: "cannot start \(python): \(error.localizedDescription)")
        }
        defer { ChildProcesses.remove(process.processIdentifier) }
        // One line per finished run: "ok ID" or "failed ID MESSAGE".
        var buffer = Data()
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
                guard parts.count >= 2, let job = byID[parts[1]], !reported.contains(job.id) else { continue }
                reported.insert(job.id)
                if parts[0] == "ok" {
                    finished(job, sharedResults ? nil : collect(job, from: incoming.appendingPathComponent(job.id), into: folder))
                } else {
                    finished(job, parts.count > 2 ? parts[2] : "failed on the cluster")
                }
            }
        }
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        try? FileManager.default.removeItem(at: incoming)
        if !jobs.allSatisfy({ reported.contains($0.id) }) {
            let tail = errorText.tail
            // 3: no dask, 4: no scheduler; 1 with "No module named 'ensim_dask'": the package is not found.
            if [3, 4].contains(process.terminationStatus) || tail.contains("No module named 'ensim_dask'") || reported.isEmpty {
                let hint = tail.contains("No module named") ? "; \(Self.installHint)" : ""
                throw ClientError(description: "the Dask client stopped (exit \(process.terminationStatus)): \(tail)\(hint)")
            }
            fail("the Dask client stopped (exit \(process.terminationStatus)): \(tail)")
        }
    }

    /// Moves the files a task returned into `runs/<id>/`, atomically; nil on success.
    func collect(_ job: SweepJob, from source: URL, into folder: SweepFolder) -> String? {
        let fm = FileManager.default
        do {
            let run = try RunFolder(finalURL: folder.runURL(job))
            do {
                for name in try fm.contentsOfDirectory(atPath: source.path) {
                    try fm.moveItem(at: source.appendingPathComponent(name), to: run.stagingURL.appendingPathComponent(name))
                }
                try run.commit()
            } catch {
                run.discard()
                throw error
            }
            try? fm.removeItem(at: source)
            return nil
        } catch {
            return "cannot collect the run's files: \(error)"
        }
    }
}

/// The last lines a child wrote on stderr (read as they come, so the pipe never fills).
final class ErrorTail: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) {
        lock.lock()
        data.append(chunk)
        if data.count > 64_000 { data = data.suffix(16_000) }
        lock.unlock()
    }

    var tail: String {
        lock.lock()
        defer { lock.unlock() }
        return LocalExecutor.tail(data)
    }
}
