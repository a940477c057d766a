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
        // The national scenario needs ~50 GB; on a machine with that much the check has nothing to refuse.
        guard let available = RunEstimate.availableBytes(), available < 30_000_000_000 else { return }
        let out = EnsimProcess.temporaryDirectory().appendingPathComponent("run")
        let r = try EnsimProcess.run(["run", "Scenarios/national-italy.yaml", "--out", out.path])
        #expect(r.status == 2)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(r.stderr.hasPrefix("error: Scenarios/national-italy.yaml: population.size 60000000 needs about "))
        #expect(r.stderr.contains("is available") && r.stderr.contains("--ignore-memory-check"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
