import ArgumentParser
import Foundation
import Scenario
import Sweep

struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run a sweep file: every grid point × replicate as a run folder, then sweep.csv and sweep_summary.csv.",
        discussion: """
        Results go to Results/sweeps/<name>/<UTC time>/ (or --out): manifest.json,
        scenarios/, runs/<run-id>/, sweep.csv (one row per run), sweep_summary.csv
        (per grid point: mean, sd, 95% t interval across replicates) and
        sweep_differences.csv (each point against the first, replicate by replicate).
        Running the same command again resumes: complete runs are skipped. See
        docs/sweeps.md.

        Examples:
          ensim sweep Scenarios/sweeps/adoption.yaml --plan
          ensim sweep Scenarios/sweeps/adoption.yaml --workers 2
          ensim sweep Scenarios/sweeps/adoption.yaml --executor dask \\
            --scheduler tcp://127.0.0.1:8786
        """
    )

    enum Executor: String, ExpressibleByArgument, CaseIterable {
        case local, dask
    }

    @Argument(help: "Sweep YAML file.")
    var file: String

    @Flag(help: "List the runs and their count; run nothing.")
    var plan = false

    @Option(help: "Where runs go: local (this machine) or dask (a Dask distributed scheduler).")
    var executor: Executor = .local

    @Option(help: "Runs at a time: local processes (default: cores ÷ --threads-per-run); with dask, only for the ETA.")
    var workers: Int?

    @Option(help: "Threads of each run.")
    var threadsPerRun = 1

    @Option(help: "Dask scheduler address, e.g. tcp://127.0.0.1:8786 (with --executor dask).")
    var scheduler: String?

    @Option(help: "The ensim the Dask workers run: a name on their PATH or an absolute path.")
    var ensim = "ensim"

    @Flag(help: "Dask workers write runs/<run-id>/ into the sweep folder themselves (a file system they share with this machine).")
    var sharedResults = false

    @Option(help: "Sweep folder (resumed when it holds this sweep).")
    var out: String?

    @Flag(help: "Start a new sweep folder even when an earlier one holds the same runs.")
    var fresh = false

    func validate() throws {
        if let workers, !(1...256).contains(workers) { throw ValidationError("--workers must be from 1 to 256, got \(workers)") }
        if !(1...256).contains(threadsPerRun) { throw ValidationError("--threads-per-run must be from 1 to 256, got \(threadsPerRun)") }
        if executor == .dask, scheduler == nil { throw ValidationError("--executor dask needs --scheduler tcp://HOST:PORT") }
        if executor == .local, scheduler != nil || sharedResults { throw ValidationError("--scheduler and --shared-results need --executor dask") }
    }

    func run() throws {
        let sweep: SweepFile
        do { sweep = try SweepLoader.load(file: file) } catch {
            Console.error(error.description)
            throw ExitCode(2)
        }
        let problems = SweepMetricProbe.problems(sweep)
        if !problems.isEmpty {
            Console.error(problems.map(\.description).joined(separator: "\n"))
            throw ExitCode(2)
        }
        let plan = SweepPlan(sweep)
        if self.plan {
            print(plan.text, terminator: "")
            return
        }
        let folder: SweepFolder
        do { folder = try SweepFolder(out: out, plan: plan, fresh: fresh) } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        // The folder's plot script (sweep.png: each metric against a varied key), when the repository is at hand.
        if let script = Self.repositoryFile("plot-scripts/plot_sweep.py"), let text = FileManager.default.contents(atPath: script.path) {
            try? folder.write("plot_sweep.py", text)
        }
        ChildProcesses.stopChildrenOnInterrupt()
        let outcome: SweepRunner.Outcome
        do {
            switch executor {
            case .local:
                let cores = ProcessInfo.processInfo.activeProcessorCount
                let local = LocalExecutor(ensim: Self.ownExecutable, workers: workers ?? max(1, cores / threadsPerRun), threadsPerRun: threadsPerRun)
                outcome = try SweepRunner.run(plan, folder: folder, executor: local, version: ENSimVersion.string, log: Console.error)
            case .dask:
                let dask = DaskExecutor(scheduler: scheduler!, workerEnsim: ensim, threadsPerRun: threadsPerRun, sharedResults: sharedResults,
                                        packageFolder: Self.pythonPackageFolder, concurrency: workers ?? 2)
                outcome = try SweepRunner.run(plan, folder: folder, executor: dask, version: ENSimVersion.string, log: Console.error)
            }
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        Console.error(String(format: "sweep %@: %d runs (%d skipped, %d ran, %d failed) in %.1f s; the runs' own time %.1f s", sweep.name,
                             outcome.total, outcome.skipped, outcome.ran, outcome.failures.count, outcome.seconds, outcome.runSeconds))
        for failure in outcome.failures { Console.error("failed \(failure.id): \(failure.error)") }
        print(outcome.folder.path)
        if !outcome.failures.isEmpty { throw ExitCode(1) }
    }

    /// This ensim binary, which the local executor runs once per run.
    static var ownExecutable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }

    /// The repository's python/ folder (holding ensim_dask).
    static var pythonPackageFolder: URL? {
        repositoryFile("python/ensim_dask/__init__.py")?.deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A file of the repository, looked for above the binary (.build/…/ensim) and the working directory.
    static func repositoryFile(_ path: String) -> URL? {
        for start in [ownExecutable.deletingLastPathComponent(), URL(fileURLWithPath: FileManager.default.currentDirectoryPath)] {
            var dir = start
            for _ in 0..<6 {
                let candidate = dir.appendingPathComponent(path)
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
                dir = dir.deletingLastPathComponent()
            }
        }
        return nil
    }
}
