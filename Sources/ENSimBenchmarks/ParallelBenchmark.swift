import Foundation

/// How much a second thread gives a whole run, against what the machine gives two independent
/// processes at the same moment (issue 21's yardstick: ENSim's 1 → 2 thread speed-up should be
/// ≥ 90% of the pair's). Every measurement is a child `ensim bench population` process, so none
/// inherits another's heap: one thread alone, two threads alone, then two one-thread runs at once.
public struct ParallelBenchmark {
    public var ensim: String
    public var phones: Int
    public var days: Int

    public init(ensim: String, phones: Int, days: Int) {
        self.ensim = ensim
        self.phones = phones
        self.days = days
    }

    public func run() throws -> BenchmarkReport {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ensim-bench-parallel-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func arguments(threads: Int, out: String) -> [String] {
            ["bench", "population", "--phones", "\(phones)", "--days", "\(days)", "--threads", "\(threads)", "--out",
             folder.appendingPathComponent(out).path]
        }
        let load = Machine.loadAverage ?? ""
        _ = try LongRunBenchmark.children(ensim, [arguments(threads: 1, out: "one.json")])
        _ = try LongRunBenchmark.children(ensim, [arguments(threads: 2, out: "two.json")])
        _ = try LongRunBenchmark.children(ensim, [arguments(threads: 1, out: "pair-a.json"), arguments(threads: 1, out: "pair-b.json")])
        let one = try Self.report(folder.appendingPathComponent("one.json"))
        let two = try Self.report(folder.appendingPathComponent("two.json"))
        let a = try Self.report(folder.appendingPathComponent("pair-a.json"))
        let b = try Self.report(folder.appendingPathComponent("pair-b.json"))
        let t1 = try Self.wall(one), t2 = try Self.wall(two), pair = max(try Self.wall(a), try Self.wall(b))
        let speedup = t1 / t2, pairSpeedup = 2 * t1 / pair
        var phases: [String: Any] = [:]
        if let p1 = one["phase_seconds"] as? [String: Double], let p2 = two["phase_seconds"] as? [String: Double] {
            for (phase, s1) in p1 where s1 > 0.01 * t1 {
                if let s2 = p2[phase], s2 > 0 { phases[phase] = ["one_thread_seconds": s1, "two_threads_seconds": s2, "speedup": s1 / s2] }
            }
        }
        return BenchmarkReport([
            "benchmark": "parallel", "phones": phones, "days": days, "load_average_at_start": load, "build": Machine.buildConfiguration,
            "one_thread_seconds": t1, "two_threads_seconds": t2, "speedup_two_threads": speedup,
            "pair_of_one_thread_runs_seconds": pair, "speedup_two_processes": pairSpeedup,
            "efficiency_vs_two_processes": speedup / pairSpeedup, "phases": phases,
        ])
    }

    static func report(_ url: URL) throws -> [String: Any] {
        guard let data = try? Data(contentsOf: url), let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchmarkError("\(url.path): no benchmark report")
        }
        return json
    }

    static func wall(_ report: [String: Any]) throws -> Double {
        guard let s = report["wall_seconds"] as? Double else { throw BenchmarkError("a population report has no wall_seconds") }
        return s
    }
}
