import Foundation
import Testing

/// Each `ensim bench` subcommand runs with tiny sizes and reports its figures (crypto and
/// matcher are left out: they time `openssl speed` for seconds).
@Suite struct BenchCommandTests {
    func json(_ arguments: [String], in directory: URL? = nil) throws -> [String: Any] {
        let r = try EnsimProcess.run(["bench"] + arguments + ["--json"], in: directory)
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    @Test func engine() throws {
        let report = try json(["engine", "--pending", "10", "--events", "2000", "--repetitions", "1", "--no-python-reference"])
        #expect((report["configurations"] as? [[String: Any]])?.count == 1)
        #expect((report["queue_comparison"] as? [[String: Any]])?.first?["events"] as? Int == 1_000)
        #expect(report["simpy"] as? String == "not run (--no-python-reference)")
    }

    @Test func populationAndBackend() throws {
        let population = try json(["population", "--phones", "300", "--days", "1", "--threads", "1"])
        #expect(population["phones"] as? Int == 300 && population["threads"] as? Int == 1)
        // CPU time and faults of the process: a run that drew 300 people's days used some of both.
        let user = try #require(population["cpu_user_seconds"] as? Double)
        let faults = try #require(population["minor_page_faults"] as? Int)
        #expect(user > 0 && population["cpu_system_seconds"] != nil && faults > 0)
        // Each timed phase has its CPU seconds, and its idle cores are threads × wall − CPU.
        let wall = try #require(population["phase_seconds"] as? [String: Double])
        let cpu = try #require(population["phase_cpu_seconds"] as? [String: Double])
        let idle = try #require(population["phase_idle_core_seconds"] as? [String: Double])
        #expect(!cpu.isEmpty && Set(cpu.keys) == Set(idle.keys) && cpu.keys.allSatisfy { wall[$0] != nil })
        #expect(cpu.allSatisfy { $0.value >= 0 } && cpu.keys.allSatisfy { abs(idle[$0]! - (wall[$0]! - cpu[$0]!)) < 1e-9 })
        #expect((cpu["WorldStage.startDay"] ?? 0) > 0, "\(cpu)")
        let backend = try json(["backend", "--people", "3000", "--days", "2", "--cases-per-day", "5", "--flavor", "immuni"])
        #expect(backend["flavor"] as? String == "immuni" && backend["days"] as? Int == 2)
    }

    /// Every round's ratio is reported, the headline is their median, and the verdict is their
    /// geometric mean's interval against the target.
    @Test func parallelReportsEachRoundAndTheirMedian() throws {
        let report = try json(["parallel", "--phones", "300", "--days", "1", "--rounds", "3"])
        let rounds = try #require(report["rounds"] as? [[String: Any]])
        let ratios = rounds.compactMap { $0["efficiency_vs_two_processes"] as? Double }.sorted()
        #expect(ratios.count == 3 && ratios.allSatisfy { $0 > 0 })
        #expect(report["efficiency_vs_two_processes"] as? Double == ratios[1])
        #expect(report["efficiency_lowest_round"] as? Double == ratios[0] && report["efficiency_highest_round"] as? Double == ratios[2])
        let best = try #require(report["one_thread_seconds"] as? Double)
        #expect(rounds.allSatisfy { ($0["one_thread_seconds"] as? Double ?? 0) >= best })
        // The verdict comes from the rounds' geometric mean and its 95% interval.
        let mean = exp(ratios.map { log($0) }.reduce(0, +) / 3)
        let interval = try #require(report["efficiency_interval_95"] as? [Double])
        #expect(abs((report["efficiency_geometric_mean"] as? Double ?? 0) - mean) < 1e-12)
        #expect(interval.count == 2 && interval[0] < mean && mean < interval[1])
        let verdict = try #require(report["verdict"] as? String)
        #expect(report["target_met"] as? Bool == (interval[0] >= 0.9) && verdict.hasPrefix(interval[0] >= 0.9 ? "met" : "not"))
        // One round has no interval, and says so (JSON has no infinity).
        let one = try json(["parallel", "--phones", "300", "--days", "1", "--rounds", "1"])
        #expect(one["efficiency_interval_95"] is NSNull && one["target_met"] as? Bool == false)
        #expect((one["verdict"] as? String)?.contains("one round: no interval") == true)
        let r = try EnsimProcess.run(["bench", "parallel", "--rounds", "0"])
        #expect(r.status != 0 && r.stderr.contains("--rounds must be from 1 to 20"))
    }

    /// Without an OpenABM-Covid19 checkout the comparison is one clear line, not a crash.
    @Test func openABMNeedsACheckoutWithItsModelBuilt() throws {
        let missing = try EnsimProcess.run(["bench", "openabm", "--openabm", "/nonexistent/OpenABM", "--phones", "300", "--days", "1"])
        #expect(missing.status != 0 && missing.stderr.contains("/nonexistent/OpenABM/src/covid19ibm.exe: not found"), "\(missing.stderr)")
        #expect(missing.stderr.split(separator: "\n").count == 1)
        let rounds = try EnsimProcess.run(["bench", "openabm", "--openabm", "/tmp", "--rounds", "0"])
        #expect(rounds.status != 0 && rounds.stderr.contains("--rounds must be from 1 to 20"))
        let none = try EnsimProcess.run(["bench", "openabm"])
        #expect(none.status != 0 && none.stderr.contains("--openabm"))
    }

    @Test func epidemicComparesTheRunWithoutAndWith() throws {
        let report = try json(["epidemic", "--phones", "2000", "--days", "6", "--threads", "1", "--counterfactual"])
        #expect(report["phones"] as? Int == 2_000 && report["wall_seconds_with"] is Double && report["overhead"] is Double)
        #expect(report["wall_seconds_with_counterfactual"] is Double && report["counterfactual_factor"] is Double)
        let events = try #require(report["epidemic_events"] as? [String: Int])
        #expect((events["epidemic_infectious"] ?? 0) > 0 && (report["infections"] as? Int ?? 0) >= 4)
    }

    @Test func distributionWritesItsTables() throws {
        let dir = EnsimProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try json(["distribution", "--clients", "200", "--days", "1", "--cases-per-day", "20", "--threads", "1",
                               "--tables", "tables"], in: dir)
        #expect(report["clients"] as? Int == 200 && report["flavor"] as? String == "cwa")
        for file in ["summary.json", "seed_comparison.md"] {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("tables/" + file).path))
        }
    }

    @Test func flavorsComeFromAFixedSet() throws {
        let r = try EnsimProcess.run(["bench", "distribution", "--flavor", "p6"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("'cwa'") && r.stderr.contains("'immuni'"))
    }
}
