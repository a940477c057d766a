import Foundation
import Testing

/// kill -9 at points spread over a run: no folder that looks finished may be wrong, and running
/// the same command again must work (the dead run's staging folder is cleaned up).
@Suite struct KillFaultTests {
    static let scenario = """
        name: kill-fault
        seed: 5
        days: 3
        population:
          size: 3000
        health:
          cases_per_day: 4
        outputs:
          hourly: true
          exports: true
        """
    static let outputs = ["summary.json", "daily.csv", "hourly.csv"]

    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = EnsimProcess.binary
        process.arguments = arguments
        process.currentDirectoryURL = EnsimProcess.packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func killedRunsLeaveNoWrongFolderAndRerunsWork() throws {
        let dir = EnsimProcess.temporaryDirectory()
        let file = dir.appendingPathComponent("kill-fault.yaml")
        try Data(Self.scenario.utf8).write(to: file)
        let reference = dir.appendingPathComponent("reference")
        let r = try EnsimProcess.run(["run", file.path, "--quiet", "--out", reference.path])
        #expect(r.status == 0, "\(r.stderr)")
        let fm = FileManager.default
        // Kill points from just after start to about the end of a run (debug or release build).
        for (n, delay) in [0.02, 0.1, 0.3, 0.6, 1.0, 1.5, 2.5, 4.0].enumerated() {
            let out = dir.appendingPathComponent("run-\(n)")
            let process = try start(["run", file.path, "--quiet", "--out", out.path])
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if fm.fileExists(atPath: out.path) {
                // It finished before the kill: it must be complete and right.
                for name in Self.outputs {
                    #expect(fm.contents(atPath: out.appendingPathComponent(name).path) == fm.contents(atPath: reference.appendingPathComponent(name).path),
                            "kill at \(delay) s: \(name) of a folder that looks finished differs")
                }
                #expect(fm.fileExists(atPath: out.appendingPathComponent("manifest.json").path))
                continue
            }
            let again = try EnsimProcess.run(["run", file.path, "--quiet", "--out", out.path])
            #expect(again.status == 0, "rerun after a kill at \(delay) s: \(again.stderr)")
            for name in Self.outputs {
                #expect(fm.contents(atPath: out.appendingPathComponent(name).path) == fm.contents(atPath: reference.appendingPathComponent(name).path),
                        "rerun after a kill at \(delay) s: \(name) differs")
            }
        }
        let leftovers = try fm.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "staging folders or locks left behind: \(leftovers)")
    }
}
