import ArgumentParser
import Detection
import Foundation
import HealthBackend
import Reporting
import Scenario
import Simulation

struct RegressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regress",
        abstract: "Compare false-positive and false-negative rates with a baseline (exit 1 on a significant regression).",
        discussion: """
        SCENARIO_OR_RUN_FOLDER is a finished run folder (its summary.json `detection`
        block) or a scenario file, which is run first (the whole chain: tests,
        uploads, packages, downloads, detection). Rates are compared with a one-sided
        two-proportion z-test (GSL); a rate significantly higher than the baseline at
        --alpha is a regression, and so is a rate the baseline has but the run cannot
        measure (no notifications, no close contacts).

        Examples:
          ensim regress Scenarios/regress.yaml \\
            --baseline Results/baselines/cwa-v2.json
          ensim regress RUN_FOLDER --baseline Results/baselines/cwa-v2.json
          ensim regress Scenarios/regress.yaml \\
            --baseline Results/baselines/cwa-v2.json --update
        """)

    @Argument(help: "Scenario YAML file or finished run folder.")
    var source: String

    @Option(help: "Baseline JSON file.")
    var baseline: String

    @Option(parsing: .unconditional, help: "Significance level of the one-sided tests (0 < alpha < 1).")
    var alpha = 0.01

    @Flag(help: "Write the current figures as the new baseline and exit 0.")
    var update = false

    @OptionGroup var threads: ThreadOptions

    func validate() throws {
        if !(alpha > 0 && alpha < 1) { throw ValidationError("--alpha must be between 0 and 1, got \(alpha)") }
    }

    func run() throws {
        let (counts, preset) = try current()
        let url = URL(fileURLWithPath: baseline)
        if update {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(RegressionBaseline(source: source, preset: preset, counts: counts))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(data + Data("\n".utf8), to: url)
            print("baseline written: \(baseline)")
            return
        }
        let base: RegressionBaseline
        do { base = try RegressionBaseline.load(file: baseline) } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(2)
        }
        if base.preset != preset {
            Console.error("warning: the baseline was made with preset \(base.preset.rawValue), this run uses \(preset.rawValue)")
        }
        let rows = DetectionRegression.compare(baseline: base.counts, now: counts, alpha: alpha)
        print(Self.table(rows, alpha: alpha), terminator: "")
        if rows.contains(where: { $0.verdict == .regression || ($0.verdict == .noData && $0.baseline.n > 0) }) { throw ExitCode(1) }
    }

    static func table(_ rows: [RateComparison], alpha: Double) -> String {
        func pct(_ x: Double) -> String { x.isNaN ? "n/a" : String(format: "%.2f%%", 100 * x) }
        var out = "rate                 baseline              now                   difference  p-value  verdict (alpha \(alpha))\n"
        for r in rows {
            let b = "\(pct(r.baselineRate)) (\(r.baseline.x)/\(r.baseline.n))", n = "\(pct(r.nowRate)) (\(r.now.x)/\(r.now.n))"
            let diff = r.baselineRate.isNaN || r.nowRate.isNaN ? "n/a" : String(format: "%+.2f pp", 100 * (r.nowRate - r.baselineRate))
            let p = r.pValue.isNaN ? "n/a" : String(format: "%.4f", r.pValue)
            out += r.name.padding(toLength: 21, withPad: " ", startingAt: 0) + b.padding(toLength: 22, withPad: " ", startingAt: 0)
                + n.padding(toLength: 22, withPad: " ", startingAt: 0) + diff.padding(toLength: 12, withPad: " ", startingAt: 0)
                + p.padding(toLength: 9, withPad: " ", startingAt: 0) + r.verdict.rawValue + "\n"
        }
        return out
    }

    /// The counts of a run folder or of running the scenario.
    func current() throws -> (DetectionCounts, DetectionPreset) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue {
            let detection: (counts: DetectionCounts, preset: DetectionPreset)?
            let run: FinishedRun
            do {
                run = try FinishedRun(folder: source)
                detection = try run.detection()
            } catch {
                Console.error("error: \(error.description)")
                throw ExitCode(2)
            }
            guard let detection else {
                Console.error("error: \(run.summaryPath): no detection block (the run had no app phones)")
                throw ExitCode(2)
            }
            return detection
        }
        let loaded: LoadedScenario
        do { loaded = try ScenarioLoader.load(file: source) } catch {
            Console.error(error.description)
            throw ExitCode(2)
        }
        let config = SimulationConfig(scenario: loaded.resolved, threads: threads.count)
        let results = try Simulation(config: config).run()
        return (DetectionCounts(summary: results.summary.detection), config.detection.preset)
    }
}
