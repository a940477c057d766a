import CSVInput
import Foundation
import GSL
import Reporting
import SimulationCore

/// Issue 21's speed yardstick: ENSim's wall time per person-day against OpenABM-Covid19's (C,
/// GSL, one thread, digital tracing on, no Bluetooth layer), measured in alternating rounds on
/// this machine. OpenABM-Covid19 is not part of ENSim: the user points at a checkout with its
/// model built (`src/covid19ibm.exe`), and its own baseline parameters are run with the
/// population, the days and the app switched on from day 1.
///
/// A shared 2-vCPU machine moves one run's wall time by 20% or more, so one round proves
/// nothing: each round runs both (in an order that alternates), and the report gives every
/// round's ratio, their geometric mean with a 95% Student-t interval over the rounds, and
/// whether the interval lies at or below the target.
public struct OpenABMBenchmark {
    public var ensim: String
    public var openABM: URL
    public var phones: Int
    public var days: Int
    public var openABMDays: Int
    public var threads: Int
    public var rounds: Int
    /// Issue 21: at most twice OpenABM-Covid19's time per person-day.
    public static let target = 2.0

    public init(ensim: String, openABM: URL, phones: Int, days: Int, openABMDays: Int, threads: Int, rounds: Int) {
        (self.ensim, self.openABM, self.phones, self.days) = (ensim, openABM, phones, days)
        (self.openABMDays, self.threads, self.rounds) = (openABMDays, threads, max(1, rounds))
    }

    /// Where the checkout keeps its model and inputs.
    var executable: URL { openABM.appendingPathComponent("src/covid19ibm.exe") }
    var baselineParameters: URL { openABM.appendingPathComponent("tests/data/baseline_parameters.csv") }
    var households: URL { openABM.appendingPathComponent("tests/data/baseline_household_demographics.csv") }

    public func run() throws -> BenchmarkReport {
        for file in [executable, baselineParameters, households] where !FileManager.default.fileExists(atPath: file.path) {
            throw BenchmarkError("\(file.path): not found (--openabm must be an OpenABM-Covid19 checkout with src/covid19ibm.exe built)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ensim-bench-openabm-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let parameters = folder.appendingPathComponent("parameters.csv")
        let text = try String(contentsOf: baselineParameters, encoding: .utf8)
        let changed = try Self.parameters(text, file: baselineParameters.path,
                                          setting: ["n_total": "\(phones)", "end_time": "\(openABMDays)", "app_turn_on_time": "1"])
        try changed.write(to: parameters, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("openabm-output")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let report = folder.appendingPathComponent("ensim.json")
        let load = Machine.loadAverage ?? ""
        var measured: [(openABM: ChildTimes, ensim: ChildTimes, ensimReport: [String: Any])] = []
        for r in 0..<rounds {
            var openABMTimes: ChildTimes?, ensimTimes: ChildTimes?
            // Alternating order: a slow spell of the machine falls on each alike.
            for step in (r % 2 == 0 ? [0, 1] : [1, 0]) {
                if step == 0 {
                    // Every path is absolute: the model reads nothing else.
                    openABMTimes = try ChildTimes.measure(executable.path, [parameters.path, "1", output.path, households.path])
                } else {
                    ensimTimes = try ChildTimes.measure(ensim, ["bench", "population", "--phones", "\(phones)", "--days", "\(days)",
                                                                "--threads", "\(threads)", "--out", report.path])
                }
            }
            measured.append((openABMTimes!, ensimTimes!, try ParallelBenchmark.report(report)))
        }
        let ensimPersonDays = Double(phones * days), openABMPersonDays = Double(phones * openABMDays)
        let ratios = measured.map { Self.ratio(ensim: $0.ensim.wall, ensimPersonDays: ensimPersonDays,
                                               openABM: $0.openABM.wall, openABMPersonDays: openABMPersonDays) }
        let summary = Self.summary(ratios: ratios)
        return BenchmarkReport([
            "benchmark": "openabm", "phones": phones, "days": days, "openabm_days": openABMDays, "threads": threads,
            "load_average_at_start": load, "build": Machine.buildConfiguration, "target_ratio": Self.target,
            "machine": Machine.processor, "openabm_build": Self.compiler(of: executable),
            "openabm_parameters": "tests/data/baseline_parameters.csv with n_total=\(phones), end_time=\(openABMDays), app_turn_on_time=1",
            "rounds": zip(measured, ratios).map { m, ratio in
                ["openabm_wall_seconds": m.openABM.wall, "openabm_cpu_seconds": m.openABM.cpu,
                 "ensim_wall_seconds": m.ensim.wall, "ensim_cpu_seconds": m.ensim.cpu,
                 "ensim_peak_rss_bytes": m.ensimReport["peak_rss_bytes"] ?? 0, "ratio_per_person_day": ratio] as [String: Any]
            },
            "ratio_geometric_mean": summary.mean, "ratio_interval_95": Self.interval(summary),
            "ratio_lowest_round": ratios.min()!, "ratio_highest_round": ratios.max()!,
            "target_met": summary.upper <= Self.target,
            "verdict": Self.verdict(summary, rounds: ratios.count),
        ])
    }

    /// ENSim's wall time per person-day over OpenABM-Covid19's.
    static func ratio(ensim: Double, ensimPersonDays: Double, openABM: Double, openABMPersonDays: Double) -> Double {
        (ensim / ensimPersonDays) / (openABM / openABMPersonDays)
    }

    /// The rounds' geometric mean ratio and its 95% interval: Student's t on the log ratios
    /// (a ratio of times is skewed; its logarithm is closer to normal). One round: no interval.
    /// `bench parallel` summarises its efficiencies (also ratios of times) the same way.
    static func summary(ratios: [Double]) -> (mean: Double, lower: Double, upper: Double) {
        let logs = ratios.map { log($0) }
        let mean = exp(Statistics.mean(logs))
        guard logs.count > 1 else { return (mean, 0, .infinity) }
        let interval = Statistics.meanConfidenceInterval(logs, confidence: 0.95)
        return (mean, exp(interval.lower), exp(interval.upper))
    }

    /// A summary's interval for a report: null after one round (JSON has no infinity).
    static func interval(_ s: (mean: Double, lower: Double, upper: Double)) -> Any {
        s.upper.isFinite ? [s.lower, s.upper] : NSNull()
    }

    static func verdict(_ s: (mean: Double, lower: Double, upper: Double), rounds: Int) -> String {
        let shown = s.upper.isFinite
            ? String(format: "%.2f× (95%% interval %.2f–%.2f× over %d rounds)", s.mean, s.lower, s.upper, rounds)
            : String(format: "%.2f× (one round: no interval)", s.mean)
        if s.upper <= target { return "met: \(shown)" }
        if s.lower > target { return "not met: \(shown)" }
        return "not shown: \(shown) straddles \(String(format: "%.0f", target))×"
    }

    /// How the yardstick was compiled: the producer strings its compiler recorded in the debug
    /// information (OpenABM-Covid19's Makefile builds with -g), e.g. "GNU C17 12.2.0 … -g -O0".
    /// Its Makefile's -O0 build took 52–62 s for 1 M × 30 here, where -O2 took 41–50 s.
    static func compiler(of executable: URL) -> String {
        guard let bytes = try? Data(contentsOf: executable) else { return "unknown (unreadable)" }
        var found: [String] = []
        for prefix in ["GNU C", "clang version"] {
            let marker = Data(prefix.utf8)
            var from = bytes.startIndex
            while let hit = bytes.range(of: marker, in: from..<bytes.endIndex) {
                let end = bytes[hit.lowerBound...].prefix(400).firstIndex(of: 0) ?? min(hit.lowerBound + 400, bytes.endIndex)
                let producer = String(decoding: bytes[hit.lowerBound..<end], as: UTF8.self)
                // gcc's is "GNU C17 …" or "GNU C++17 …"; not "GNU C Library …", which libc's strings hold.
                let isCompiler = prefix != "GNU C" || producer.dropFirst(prefix.count).first.map { $0.isNumber || $0 == "+" } == true
                if isCompiler && !found.contains(producer) { found.append(producer) }
                from = end
            }
        }
        return found.isEmpty ? "unknown (no compiler's producer string: built without -g)" : found.joined(separator: "; ")
    }

    /// `text` (one header row, one row of values) with the named columns set; every named
    /// column must exist. Written back as the project writes every CSV (`CSVReport`).
    static func parameters(_ text: String, file: String, setting values: [String: String]) throws -> String {
        let rows: [CSVInput.Row]
        do throws(CSVInput.ParseError) { rows = try CSVInput.rows(text) } catch { throw BenchmarkError("\(file):\(error.line): \(error.message)") }
        guard rows.count == 2, rows[0].cells.count == rows[1].cells.count else {
            throw BenchmarkError("\(file): expected a header and one row of parameters of the same length")
        }
        var cells = rows[1].cells
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let i = rows[0].cells.firstIndex(of: name) else { throw BenchmarkError("\(file): no column \(name)") }
            cells[i] = value
        }
        var table = ResultTable(columns: rows[0].cells)
        table.append(cells.map { .text($0) })
        return String(decoding: CSVReport.encode(table), as: UTF8.self)
    }
}

/// Wall and CPU time (user + system) of one child process.
struct ChildTimes {
    var wall: Double, cpu: Double

    /// CPU time is the growth of `getrusage(RUSAGE_CHILDREN)` across the run: exact when children
    /// are waited for one at a time, as here.
    static func measure(_ executable: String, _ arguments: [String]) throws -> ChildTimes {
        let before = ProcessUsage.children
        let wall = try LongRunBenchmark.children(executable, [arguments])
        let after = ProcessUsage.children
        return ChildTimes(wall: wall, cpu: after.userSeconds + after.systemSeconds - before.userSeconds - before.systemSeconds)
    }
}
