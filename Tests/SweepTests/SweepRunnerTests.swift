import Foundation
import Reporting
import Scenario
@testable import Sweep
import Testing

/// Writes minimal finished run folders (manifest.json with the job's scenario hash, summary.json), failing
/// the jobs it is told to: the runner's bookkeeping without simulating anything.
final class ScriptedExecutor: SweepExecutor, @unchecked Sendable {
    let failOnce: Set<String>
    let failAlways: Set<String>
    private let lock = NSLock()
    private(set) var attempts: [String: Int] = [:]

    init(failOnce: Set<String> = [], failAlways: Set<String> = []) {
        self.failOnce = failOnce
        self.failAlways = failAlways
    }

    var label: String { "scripted" }
    var concurrency: Int { 1 }

    func execute(_ jobs: [SweepJob], in folder: SweepFolder, finished: @escaping @Sendable (SweepJob, String?) -> Void) throws {
        for job in jobs {
            lock.lock()
            attempts[job.id, default: 0] += 1
            let attempt = attempts[job.id]!
            lock.unlock()
            if failAlways.contains(job.id) || (failOnce.contains(job.id) && attempt == 1) {
                finished(job, "exit 1: simulated failure \(attempt)")
                continue
            }
            do {
                let run = try RunFolder(finalURL: folder.runURL(job))
                try run.write("manifest.json", Data("{\"scenario_sha256\": \"\(job.scenarioSHA256)\"}\n".utf8))
                try run.write("summary.json", Data("{\"detection\": {\"notified\": \(job.run.point * 10 + job.run.replicate)}}\n".utf8))
                try run.commit()
                finished(job, nil)
            } catch {
                finished(job, "\(error)")
            }
        }
    }
}

@Suite struct SweepRunnerTests {
    let fixture = SweepFixture()

    func plan() throws -> SweepPlan {
        SweepPlan(try fixture.load("base: base.yaml\nreplicates: 2\ngrid:\n  population.app_adoption: [0.2, 0.4]\nmetrics: [detection.notified]\n"))
    }

    func run(_ plan: SweepPlan, _ executor: ScriptedExecutor, out: URL) throws -> SweepRunner.Outcome {
        let folder = try SweepFolder(out: out.path, plan: plan)
        return try SweepRunner.run(plan, folder: folder, executor: executor, version: "test", log: { _ in })
    }

    @Test func failedRunIsRetriedOnceThenReportedWithoutStoppingTheRest() throws {
        let plan = try plan()
        let out = fixture.folder.appendingPathComponent("out")
        let executor = ScriptedExecutor(failOnce: ["p00-r2"], failAlways: ["p01-r1"])
        let outcome = try run(plan, executor, out: out)
        #expect(executor.attempts == ["p00-r1": 1, "p00-r2": 2, "p01-r1": 2, "p01-r2": 1])
        #expect(outcome.failures.map(\.id) == ["p01-r1"])
        #expect(outcome.failures.first?.error == "exit 1: simulated failure 2")
        let csv = try String(contentsOf: out.appendingPathComponent("sweep.csv"), encoding: .utf8)
        #expect(csv.contains("p00-r2,0,2,") && csv.contains(",0.2,complete,2\n"))
        #expect(csv.contains("p01-r1,1,1,5,0.4,failed,\n"))
        let failures = try String(contentsOf: out.appendingPathComponent("failures.csv"), encoding: .utf8)
        #expect(failures == "run_id,error\np01-r1,exit 1: simulated failure 2\n")

        // Again with nothing failing: the three complete runs are skipped, the failed one runs, failures.csv goes.
        let second = ScriptedExecutor()
        let again = try run(plan, second, out: out)
        #expect(second.attempts == ["p01-r1": 1])
        #expect(again.skipped == 3 && again.failures.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("failures.csv").path))
    }

    @Test func incompleteOrForeignRunFoldersAreRedone() throws {
        let plan = try plan()
        let out = fixture.folder.appendingPathComponent("out")
        _ = try run(plan, ScriptedExecutor(), out: out)
        let runs = out.appendingPathComponent("runs")
        // One folder lost its manifest (damaged), one holds another scenario's run, one was deleted.
        try FileManager.default.removeItem(at: runs.appendingPathComponent("p00-r1/manifest.json"))
        try Data("{\"scenario_sha256\": \"0000\"}\n".utf8).write(to: runs.appendingPathComponent("p00-r2/manifest.json"))
        try FileManager.default.removeItem(at: runs.appendingPathComponent("p01-r2"))
        let executor = ScriptedExecutor()
        let outcome = try run(plan, executor, out: out)
        #expect(executor.attempts == ["p00-r1": 1, "p00-r2": 1, "p01-r2": 1])
        #expect(outcome.skipped == 1)
    }

    @Test func aFolderOfAnotherSweepIsRefused() throws {
        let out = fixture.folder.appendingPathComponent("out")
        _ = try run(try plan(), ScriptedExecutor(), out: out)
        let other = SweepPlan(try fixture.load("base: base.yaml\ngrid:\n  population.app_adoption: [0.3]\n"))
        #expect(throws: SweepFolder.FolderError.self) { try SweepFolder(out: out.path, plan: other) }
        let notSweep = fixture.folder.appendingPathComponent("notsweep")
        try FileManager.default.createDirectory(at: notSweep, withIntermediateDirectories: true)
        try Data().write(to: notSweep.appendingPathComponent("x"))
        #expect(throws: SweepFolder.FolderError.self) { try SweepFolder(out: notSweep.path, plan: other) }
    }
}
