import Foundation
import Simulation
import Testing

/// A run states what it needs before it starts, and refuses one the machine cannot hold.
@Suite struct RunEstimateCommandTests {
    @Test func estimatePrintsMemoryAndTimeAndRunsNothing() throws {
        let out = EnsimProcess.temporaryDirectory().appendingPathComponent("run")
        let r = try EnsimProcess.run(["run", "Scenarios/national-italy.yaml", "--estimate", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stdout.split(separator: "\n").first.map(String.init))
        #expect(line.hasPrefix("Scenarios/national-italy.yaml: estimated peak memory "))
        // 60 million people: far beyond 10 GB, and the app phones are the adoption share.
        let gb = try #require(Double(line.split(separator: " ")[4]))
        #expect(line.split(separator: " ")[5] == "GB" && gb > 10 && gb < 1000)
        #expect(line.contains("(60000000 people, 9780000 app phones)"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func runThatCannotFitIsRefusedBeforeItStarts() throws {
        // On a machine with the memory the national scenario needs (~25 GB) the check has nothing to
        // refuse, and the test must not start a 60-million-person run: it asks for the estimate first.
        let estimate = try EnsimProcess.run(["run", "Scenarios/national-italy.yaml", "--estimate"])
        let gb = try #require(estimate.stdout.split(separator: " ").dropFirst(4).first.flatMap { Double($0) })
        guard let available = RunEstimate.availableBytes(), Double(available) < gb * 1e9 * 0.9 else { return }
        let out = EnsimProcess.temporaryDirectory().appendingPathComponent("run")
        let r = try EnsimProcess.run(["run", "Scenarios/national-italy.yaml", "--out", out.path])
        #expect(r.status == 2)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(r.stderr.hasPrefix("error: Scenarios/national-italy.yaml: population.size 60000000 needs about "))
        #expect(r.stderr.contains("is available") && r.stderr.contains("--ignore-memory-check"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A scaled replay with far more relay devices than phones would need terabytes: refused with
    /// one line that names the attack, not killed by the kernel mid-run.
    @Test func replayThatCannotFitIsRefusedNamingTheAttack() throws {
        let folder = EnsimProcess.temporaryDirectory()
        let scenario = folder.appendingPathComponent("replay.yaml")
        try """
            name: replay-too-big
            days: 2
            population:
              size: 5000
              app_adoption: 0.6
            p6:
              enabled: true
              attacks:
                replay:
                  attacks: 1000
                  relays: 2000
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("run")
        let r = try EnsimProcess.run(["run", scenario.path, "--out", out.path])
        #expect(r.status == 2)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.hasPrefix("error: \(scenario.path): p6.attacks.replay (1000 attacks × 2000 relays, 666.7 relay devices per app phone at once) needs about "),
                "\(r.stderr)")
        #expect(r.stderr.contains(" GB of memory") && r.stderr.contains("--ignore-memory-check"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// Where the estimate is wrong, the run stops itself, with one line and nothing written, before
    /// the kernel kills it without a word: here the reserve it keeps free is more than any machine has.
    @Test func runStopsBeforeTheMachineRunsOutOfMemory() throws {
        let out = EnsimProcess.temporaryDirectory().appendingPathComponent("run")
        let r = try EnsimProcess.run(["run", "Scenarios/default.yaml", "--days", "2", "--quiet", "--out", out.path],
                                     environment: ["ENSIM_MEMORY_RESERVE": "100000000000000"])
        #expect(r.status == 2)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: Scenarios/default.yaml: stopped before the machine ran out of memory: the run held "))
        #expect(r.stderr.contains("less than the 100000.0 GB kept free (ENSIM_MEMORY_RESERVE); nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // --ignore-memory-check turns the watchdog off with the check before the start.
        let tried = try EnsimProcess.run(["run", "Scenarios/default.yaml", "--days", "1", "--quiet", "--ignore-memory-check", "--out", out.path],
                                         environment: ["ENSIM_MEMORY_RESERVE": "100000000000000"])
        #expect(tried.status == 0, "\(tried.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("summary.json").path))
        // A reserve that is not a number of bytes is refused, not ignored.
        let typo = try EnsimProcess.run(["run", "Scenarios/default.yaml", "--days", "1", "--quiet"], environment: ["ENSIM_MEMORY_RESERVE": "2GB"])
        #expect(typo.status != 0 && typo.stderr.split(separator: "\n").count == 1)
        #expect(typo.stderr.hasPrefix("error: the environment variable ENSIM_MEMORY_RESERVE must be a whole number of bytes, 0 or more, not \"2GB\""), "\(typo.stderr)")
    }

    /// Encounters and close contacts go to temporary files: a TMPDIR that cannot hold them stops
    /// the run with one line that says which folder and what to do.
    @Test func unwritableTemporaryFolderIsOneClearLine() throws {
        let out = EnsimProcess.temporaryDirectory().appendingPathComponent("run")
        let r = try EnsimProcess.run(["run", "Scenarios/default.yaml", "--days", "2", "--quiet", "--out", out.path],
                                     environment: ["TMPDIR": "/nonexistent-ensim-tmp"])
        #expect(r.status != 0)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.contains("/nonexistent-ensim-tmp") && r.stderr.contains("set TMPDIR to a writable folder"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
