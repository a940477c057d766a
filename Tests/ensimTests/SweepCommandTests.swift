import Foundation
import Testing

/// `ensim sweep` end to end on a tiny scenario: 2 × 2 grid × 2 replicates, locally and on a Dask cluster.
@Suite(.serialized) struct SweepCommandTests {
    static let base = """
        name: tiny
        seed: 9
        days: 2
        population:
          size: 400
          app_adoption: 0.5
        health:
          cases_per_day: 3
        outputs:
          hourly: false
          distribution_minutes: false
        """
    static let sweep = """
        name: tiny-sweep
        base: base.yaml
        replicates: 2
        grid:
          population.app_adoption: [0.3, 0.7]
          app.detection.gaen_v2.attenuation_thresholds_db.near: {from: 60, to: 68, step: 8}
        metrics: [detection.notified, detection.recall, detection.notified / health.index_cases, distribution.requests]
        """

    let dir = EnsimProcess.temporaryDirectory()

    init() throws {
        try Self.base.write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
        try Self.sweep.write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    }

    func sweep(_ extra: [String]) throws -> EnsimProcess.Output {
        try EnsimProcess.run(["sweep", dir.appendingPathComponent("s.yaml").path] + extra, in: dir)
    }

    func data(_ url: URL, _ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }

    func startedAt(_ run: URL) throws -> String {
        let manifest = try JSONSerialization.jsonObject(with: data(run, "manifest.json")) as! [String: Any]
        return manifest["started_at"] as! String
    }

    @Test func localSweepResumesSkippingCompleteRunsAndRedoingOnlyTheMissingOne() throws {
        let out = dir.appendingPathComponent("out")
        let first = try sweep(["--out", out.path, "--workers", "2"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == out.path + "\n")
        #expect(first.stderr.contains("8 runs, 0 already complete, 8 to run (local, 2 workers × 1 thread)"))
        #expect(first.stderr.contains("[8/8]"))
        let csv = try data(out, "sweep.csv")
        let lines = String(decoding: csv, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 9)
        #expect(lines[0] == "run_id,point,replicate,seed,population.app_adoption,app.detection.gaen_v2.attenuation_thresholds_db.near,status,detection.notified,detection.recall,detection.notified/health.index_cases,distribution.requests")
        #expect(lines.dropFirst().allSatisfy { $0.contains(",complete,") })
        #expect(lines[1].hasPrefix("p00-r1,0,1,9,0.3,60,complete,"))
        let summary = String(decoding: try data(out, "sweep_summary.csv"), as: UTF8.self).split(separator: "\n")
        #expect(summary.count == 5)
        #expect(summary[1].hasPrefix("0,0.3,60,2,2,"))
        // Points 1-3 against point 0, paired by replicate.
        let differences = String(decoding: try data(out, "sweep_differences.csv"), as: UTF8.self).split(separator: "\n")
        #expect(differences.count == 4 && differences[0].hasPrefix("point,population.app_adoption,app.detection.gaen_v2.attenuation_thresholds_db.near,against_point,detection.notified:pairs,detection.notified:mean_difference,"))
        #expect(differences[1].hasPrefix("1,") && differences[1].split(separator: ",")[3...4] == ["0", "2"])
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("plot_sweep.py").path))
        let runs = out.appendingPathComponent("runs")
        let names = try FileManager.default.contentsOfDirectory(atPath: runs.path).sorted()
        #expect(names == ["p00-r1", "p00-r2", "p01-r1", "p01-r2", "p02-r1", "p02-r2", "p03-r1", "p03-r2"])
        // Each run is an ordinary run folder of its scenario file; replicate 2 has another seed.
        let manifest = try JSONSerialization.jsonObject(with: data(runs.appendingPathComponent("p00-r2"), "manifest.json")) as! [String: Any]
        #expect(manifest["scenario_file"] as? String == out.appendingPathComponent("scenarios/p00-r2.yaml").path)
        #expect(manifest["seed"] as? String != "9")
        let stamps = try names.map { try startedAt(runs.appendingPathComponent($0)) }

        // Again: every run is complete, none runs, the tables are the same bytes.
        let second = try sweep(["--out", out.path])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("8 runs (8 skipped, 0 ran, 0 failed)"))
        #expect(try data(out, "sweep.csv") == csv)
        #expect(try names.map { try startedAt(runs.appendingPathComponent($0)) } == stamps)

        // One run folder deleted: only it runs again, with the same results.
        try FileManager.default.removeItem(at: runs.appendingPathComponent("p02-r1"))
        let third = try sweep(["--out", out.path])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stderr.contains("8 runs (7 skipped, 1 ran, 0 failed)"))
        #expect(third.stderr.contains("[8/8] p02-r1 done"))
        #expect(try data(out, "sweep.csv") == csv)
        // The other runs' folders are untouched. (p02-r1's new stamp may equal its old one: the
        // stamps have whole seconds, and a tiny run can start again within the same second.)
        let after = try names.map { try startedAt(runs.appendingPathComponent($0)) }
        #expect(zip(names, zip(stamps, after)).filter { $0.1.0 != $0.1.1 }.allSatisfy { $0.0 == "p02-r1" })
    }

    /// Ctrl-C (SIGINT to the sweep alone, as Foundation gives each child its own process group): the
    /// running `ensim run` is stopped too, every visible run folder is complete, and the same command resumes.
    @Test func interruptedSweepKeepsCompleteRunsAndResumes() throws {
        let out = dir.appendingPathComponent("interrupted")
        let process = Process()
        process.executableURL = EnsimProcess.binary
        process.arguments = ["sweep", dir.appendingPathComponent("s.yaml").path, "--out", out.path, "--workers", "1"]
        process.currentDirectoryURL = dir
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let runs = out.appendingPathComponent("runs")
        func visible() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: runs.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        }
        for _ in 0..<1200 where visible().count < 2 && process.isRunning { usleep(50_000) }
        try #require(process.isRunning, "the sweep ended before it could be interrupted")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let kept = visible()
        #expect(kept.count >= 2 && kept.count < 8, "\(kept)")
        // No ensim run of this sweep is left running.
        usleep(300_000)
        let orphans = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { pid in
            guard Int32(pid) != nil, let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: cmdline, as: UTF8.self).contains(out.path)
        }
        #expect(orphans.isEmpty, "still running: \(orphans)")
        for name in kept {
            let folder = runs.appendingPathComponent(name)
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("manifest.json").path), "\(name) incomplete")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("summary.json").path), "\(name) incomplete")
        }
        let resumed = try sweep(["--out", out.path])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("8 runs, \(kept.count) already complete, \(8 - kept.count) to run"), "\(resumed.stderr)")
        #expect(visible().count == 8)
    }

    @Test func planListsTheRunsAndValidateChecksSweepFiles() throws {
        let plan = try sweep(["--plan"])
        #expect(plan.status == 0)
        let lines = plan.stdout.split(separator: "\n")
        #expect(lines[0].hasSuffix("4 grid point(s) × 2 replicate(s) = 8 runs of \(dir.appendingPathComponent("base.yaml").path)"))
        #expect(lines.filter { $0.hasPrefix("p0") }.count == 8)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Results").path))

        let valid = try EnsimProcess.run(["validate", "s.yaml", "base.yaml"], in: dir)
        #expect(valid.status == 0)
        #expect(valid.stdout == "s.yaml: ok (sweep of 8 runs)\nbase.yaml: ok\n")

        try "base: base.yaml\ngrid:\n  population.app_adoptio: [0.2]\n  days: {from: 3, to: 2, step: 1}\n"
            .write(to: dir.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let bad = try EnsimProcess.run(["validate", "bad.yaml"], in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr == """
            bad.yaml:3:3: grid.population.app_adoptio: unknown key path: 'population' has no key 'app_adoptio' (did you mean 'app_adoption'?); \
            allowed: size, age_shares, adoption_model, app_adoption, app_adoption_by_age, ios_share, availability
            bad.yaml:4:9: grid.days: from 3 is above to 2, so the sweep expands to zero runs

            """)
        let badSweep = try EnsimProcess.run(["sweep", "bad.yaml"], in: dir)
        #expect(badSweep.status == 2 && badSweep.stderr == bad.stderr)

        // A metric that is not in summary.json is found before any run, at its place in the file.
        try "base: base.yaml\nmetrics:\n  - detection.notified\n  - detection.recal\n"
            .write(to: dir.appendingPathComponent("metric.yaml"), atomically: true, encoding: .utf8)
        let metric = try EnsimProcess.run(["sweep", "metric.yaml"], in: dir)
        #expect(metric.status == 2)
        #expect(metric.stderr.hasPrefix("metric.yaml:4:5: metrics: metric 'detection.recal': summary.json has no 'detection.recal' (keys there: "), "\(metric.stderr)")
        #expect(try EnsimProcess.run(["validate", "metric.yaml"], in: dir).stderr == metric.stderr)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Results").path))
    }

    /// The same sweep on a real Dask cluster (a scheduler and two workers on 127.0.0.1, ports chosen by the
    /// OS): the runs come back as files, and sweep.csv is byte-identical to the local one.
    @Test func daskClusterGivesTheSameSweepCSVAsLocal() throws {
        let check = try Self.python(["-c", "import dask, distributed"])
        try #require(check == 0, "the Python packages dask and distributed are missing: python3 -m pip install dask distributed (or bash .ci/setup)")
        let cluster = try DaskCluster(in: dir, workers: 2)
        defer { cluster.stop() }

        let local = dir.appendingPathComponent("local"), dask = dir.appendingPathComponent("dask")
        let l = try sweep(["--out", local.path, "--workers", "2"])
        #expect(l.status == 0, "\(l.stderr)")
        let d = try sweep(["--out", dask.path, "--executor", "dask", "--scheduler", cluster.address, "--ensim", EnsimProcess.binary.path])
        #expect(d.status == 0, "\(d.stderr)\n\(cluster.logs)")
        #expect(d.stderr.contains("(dask at \(cluster.address))"))
        #expect(try data(dask, "sweep.csv") == data(local, "sweep.csv"))
        #expect(try data(dask, "sweep_summary.csv") == data(local, "sweep_summary.csv"))
        #expect(try data(dask, "sweep_differences.csv") == data(local, "sweep_differences.csv"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dask.appendingPathComponent("runs/p01-r2").path).sorted()
        #expect(files.contains("summary.json") && files.contains("backend"))
        #expect(!FileManager.default.fileExists(atPath: dask.appendingPathComponent("incoming").path))

        // Workers writing into the sweep folder themselves (a shared file system): the same table.
        let shared = dir.appendingPathComponent("shared")
        let sh = try sweep(["--out", shared.path, "--executor", "dask", "--scheduler", cluster.address, "--ensim", EnsimProcess.binary.path,
                            "--shared-results"])
        #expect(sh.status == 0, "\(sh.stderr)")
        #expect(try data(shared, "sweep.csv") == data(local, "sweep.csv"))

        // A worker lost mid-sweep (kill -9): Dask gives its tasks to the other worker, nothing is lost.
        let lost = dir.appendingPathComponent("lost")
        let process = Process()
        process.executableURL = EnsimProcess.binary
        process.arguments = ["sweep", dir.appendingPathComponent("s.yaml").path, "--out", lost.path, "--executor", "dask",
                             "--scheduler", cluster.address, "--ensim", EnsimProcess.binary.path]
        process.currentDirectoryURL = dir
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let lostRuns = lost.appendingPathComponent("runs")
        for _ in 0..<1200 where process.isRunning
            && ((try? FileManager.default.contentsOfDirectory(atPath: lostRuns.path)) ?? []).filter({ !$0.hasPrefix(".") }).isEmpty {
            usleep(50_000)
        }
        cluster.kill(worker: 0)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(cluster.logs)")
        #expect(try data(lost, "sweep.csv") == data(local, "sweep.csv"))

        // Workers that cannot start ensim: every run fails, is retried once, and is reported; the sweep exits 1.
        let broken = try sweep(["--out", dir.appendingPathComponent("broken").path, "--executor", "dask",
                                "--scheduler", cluster.address, "--ensim", "/nonexistent/ensim"])
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("retrying 8 failed run(s) once"))
        #expect(broken.stderr.contains("failed p00-r1: cannot start /nonexistent/ensim on the worker"))
        let failures = try String(contentsOf: dir.appendingPathComponent("broken/failures.csv"), encoding: .utf8)
        #expect(failures.split(separator: "\n").count == 9)
    }

    static func python(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// `dask scheduler` and `dask worker` processes on 127.0.0.1; the scheduler picks a free port and
/// writes its address to a scheduler file, which the workers read.
final class DaskCluster {
    private(set) var address = ""
    private var processes: [Process] = []
    private let logFolder: URL

    init(in dir: URL, workers: Int) throws {
        logFolder = dir.appendingPathComponent("dask-logs")
        try FileManager.default.createDirectory(at: logFolder, withIntermediateDirectories: true)
        let schedulerFile = dir.appendingPathComponent("scheduler.json")
        var address: String?
        do {
            try start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", schedulerFile.path], log: "scheduler")
            for _ in 0..<600 where address == nil {
                if let data = try? Data(contentsOf: schedulerFile),
                   let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                    address = object["address"] as? String
                }
                if address == nil { usleep(100_000) }
            }
            guard let found = address else { throw ClusterError(description: "the Dask scheduler did not start in 60 s: \(logs)") }
            self.address = found
            for i in 0..<workers {
                try start(["worker", "--scheduler-file", schedulerFile.path, "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1",
                           "--no-dashboard", "--name", "w\(i)"], log: "worker\(i)")
            }
        } catch {
            stop()
            throw error
        }
    }

    struct ClusterError: Error, CustomStringConvertible { let description: String }

    private func start(_ arguments: [String], log: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "dask"] + arguments
        let logURL = logFolder.appendingPathComponent("\(log).log")
        FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let handle = try FileHandle(forWritingTo: logURL)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        processes.append(process)
    }

    var logs: String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: logFolder.path)) ?? []
        return names.sorted().map { name in
            let text = (try? String(contentsOf: logFolder.appendingPathComponent(name), encoding: .utf8)) ?? ""
            return "--- \(name)\n" + text.split(separator: "\n").suffix(15).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Kills worker `i` at once (kill -9), as a lost machine.
    func kill(worker i: Int) {
        let process = processes[1 + i]
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// Workers first, then the scheduler; each gets SIGTERM, then SIGKILL after 10 s.
    func stop() {
        for process in processes.reversed() where process.isRunning {
            process.terminate()
            for _ in 0..<100 where process.isRunning { usleep(100_000) }
            if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        processes.removeAll()
    }
}
