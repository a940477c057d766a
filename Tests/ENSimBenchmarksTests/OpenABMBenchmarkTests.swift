import Foundation
import Testing
@testable import ENSimBenchmarks

@Suite struct OpenABMBenchmarkTests {
    @Test func parametersAreSetByColumnAndTheRestKept() throws {
        let text = "n_total,end_time,note,app_turn_on_time\n1000000,200,\"a,b\",10000\n"
        let changed = try OpenABMBenchmark.parameters(text, file: "p.csv", setting: ["n_total": "5000", "end_time": "30", "app_turn_on_time": "1"])
        #expect(changed == "n_total,end_time,note,app_turn_on_time\n5000,30,\"a,b\",1\n")
        #expect(throws: BenchmarkError.self) { try OpenABMBenchmark.parameters(text, file: "p.csv", setting: ["n_people": "1"]) }
        #expect(throws: BenchmarkError.self) { try OpenABMBenchmark.parameters(text + "1,2,3,4\n", file: "p.csv", setting: [:]) }
        #expect(throws: BenchmarkError.self) { try OpenABMBenchmark.parameters("a,b\n1\n", file: "p.csv", setting: [:]) }
    }

    @Test func ratioIsPerPersonDayAndItsIntervalIsStudentsOnTheLogs() {
        // 112 s for 1 M × 28 against 52 s for 1 M × 30.
        let r = OpenABMBenchmark.ratio(ensim: 112, ensimPersonDays: 28e6, openABM: 52, openABMPersonDays: 30e6)
        #expect(abs(r - (4.0 / (52.0 / 30))) < 1e-12)
        let ratios = [1.5, 2.5, 2.0]
        let s = OpenABMBenchmark.summary(ratios: ratios)
        let logs = ratios.map { log($0) }, mean = logs.reduce(0, +) / 3
        let sd = (logs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 2).squareRoot()
        // Student's t, 2 degrees of freedom, 97.5%.
        let half = 4.302652729911275 * sd / 3.0.squareRoot()
        #expect(abs(s.mean - exp(mean)) < 1e-12)
        #expect(abs(s.lower - exp(mean - half)) < 1e-9 && abs(s.upper - exp(mean + half)) < 1e-9)
        let one = OpenABMBenchmark.summary(ratios: [2.3])
        #expect(abs(one.mean - 2.3) < 1e-12 && one.upper == .infinity)
    }

    @Test func verdictNeedsTheWholeIntervalOnOneSide() {
        #expect(OpenABMBenchmark.verdict((1.8, 1.7, 1.95), rounds: 3).hasPrefix("met: 1.80×"))
        #expect(OpenABMBenchmark.verdict((2.3, 2.1, 2.5), rounds: 3).hasPrefix("not met: 2.30×"))
        #expect(OpenABMBenchmark.verdict((2.0, 1.8, 2.2), rounds: 3).hasPrefix("not shown:"))
        #expect(OpenABMBenchmark.verdict((1.5, 0, .infinity), rounds: 1) == "not shown: 1.50× (one round: no interval) straddles 2×")
    }

    /// The whole benchmark with stand-ins for both programs: every round runs each once, in
    /// alternating order, OpenABM-Covid19 on the rewritten parameters and its households.
    @Test func roundsAlternateAndOpenABMGetsItsParameters() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("openabm-bench-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let checkout = root.appendingPathComponent("OpenABM-Covid19"), log = root.appendingPathComponent("log.txt")
        for dir in ["src", "tests/data"] {
            try FileManager.default.createDirectory(at: checkout.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        try "n_total,end_time,app_turn_on_time,rng_seed\n1000000,200,10000,7\n"
            .write(to: checkout.appendingPathComponent("tests/data/baseline_parameters.csv"), atomically: true, encoding: .utf8)
        try "ID\n1\n".write(to: checkout.appendingPathComponent("tests/data/baseline_household_demographics.csv"), atomically: true, encoding: .utf8)
        // OpenABM-Covid19's stand-in logs its parameters' row, its run number and its households file.
        try script(checkout.appendingPathComponent("src/covid19ibm.exe"), """
            echo "openabm $(tail -n 1 "$1") $2 $(basename "$4")" >> \(log.path)
            """)
        // ENSim's stand-in writes a population report where it is told to.
        let ensim = root.appendingPathComponent("ensim")
        try script(ensim, """
            echo "ensim $*" >> \(log.path)
            while [ "$1" != "--out" ]; do shift; done
            echo '{"wall_seconds": 1.0, "peak_rss_bytes": 123}' > "$2"
            """)
        let report = try OpenABMBenchmark(ensim: ensim.path, openABM: checkout, phones: 5000, days: 4, openABMDays: 6, threads: 2,
                                          rounds: 3).run().fields
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.map { $0.split(separator: " ")[0] } == ["openabm", "ensim", "ensim", "openabm", "openabm", "ensim"])
        let openabm = "openabm 5000,6,1,7 1 baseline_household_demographics.csv"
        #expect(lines.filter { $0.hasPrefix("openabm") }.allSatisfy { $0 == openabm }, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("ensim") }.allSatisfy { $0.hasPrefix("ensim bench population --phones 5000 --days 4 --threads 2 --out ") })
        let rounds = try #require(report["rounds"] as? [[String: Any]])
        #expect(rounds.count == 3 && rounds.allSatisfy { ($0["ratio_per_person_day"] as? Double ?? 0) > 0 })
        #expect(report["openabm_days"] as? Int == 6 && report["target_ratio"] as? Double == 2)
        #expect(report["verdict"] is String && report["target_met"] is Bool)
        // A shell script records no compiler; the machine is always named.
        #expect((report["openabm_build"] as? String)?.hasPrefix("unknown (no compiler") == true)
        #expect((report["machine"] as? String)?.hasSuffix("logical CPUs") == true)
        // One round has no interval: the report says so and is still valid JSON.
        let one = try OpenABMBenchmark(ensim: ensim.path, openABM: checkout, phones: 5000, days: 4, openABMDays: 6, threads: 2,
                                       rounds: 1).run().fields
        #expect(one["ratio_interval_95"] is NSNull && JSONSerialization.isValidJSONObject(one))
        #expect((one["verdict"] as? String)?.contains("one round: no interval") == true)
    }

    /// The yardstick's build is read from the producer strings its compiler left in the
    /// executable, each named once, whatever bytes surround them.
    @Test func theYardsticksCompilerFlagsAreReadFromItsDebugInformation() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openabm-producer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let o2 = "GNU C17 12.2.0 -mtune=generic -march=x86-64 -g -O2"
        var bytes = Data([0x7f, 0x45, 0x4c, 0x46, 0, 1])
        for text in [o2, "main.c", "GNU C Library (Debian GLIBC 2.36)", o2, "clang version 21.0.0 (-O3)"] {
            bytes += Data(text.utf8) + Data([0, 0xff])
        }
        try bytes.write(to: file)
        #expect(OpenABMBenchmark.compiler(of: file) == o2 + "; clang version 21.0.0 (-O3)")
        // Cut in the middle of a string, with no NUL after it.
        try (Data([0]) + Data("GNU C17 -O0".utf8)).write(to: file)
        #expect(OpenABMBenchmark.compiler(of: file) == "GNU C17 -O0")
        try Data("no producer here".utf8).write(to: file)
        #expect(OpenABMBenchmark.compiler(of: file).hasPrefix("unknown (no compiler"))
    }

    @Test func aCheckoutWithoutTheModelIsOneClearError() {
        let missing = URL(fileURLWithPath: "/nonexistent/OpenABM-Covid19")
        #expect {
            try OpenABMBenchmark(ensim: "/bin/true", openABM: missing, phones: 10, days: 1, openABMDays: 1, threads: 1, rounds: 1).run()
        } throws: { ($0 as? BenchmarkError)?.description.contains("/nonexistent/OpenABM-Covid19/src/covid19ibm.exe: not found") == true }
    }

    private func script(_ url: URL, _ body: String) throws {
        try ("#!/bin/sh\n" + body + "\n").write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }
}
