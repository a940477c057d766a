import Foundation
import Testing

/// A run states what it needs before it starts, and refuses one the machine cannot hold.
@Suite struct RunEstimateCommandTests {
    /// MemAvailable, as the command reads it.
    static var availableBytes: Int64? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
              let kb = line.split(separator: " ").dropFirst().first.flatMap({ Int64($0) }) else { return nil }
        return kb * 1024
    }

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
        guard let available = Self.availableBytes, available < 30_000_000_000 else { return }
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
