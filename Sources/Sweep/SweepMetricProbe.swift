import Foundation
import Reporting
import Scenario
import Simulation

/// Checks a sweep's metrics before any run: the first run's scenario, shrunk to a one-day run of at
/// most 200 people, is simulated in this process and its summary.json is read as the runs' will be
/// (which blocks summary.json has depends on the stages a scenario turns on, not on its size). A
/// misspelt metric is then one line at its place in the sweep file, from `ensim validate` too.
public enum SweepMetricProbe {
    public static let probePeople: Int64 = 200

    /// The metrics missing from the probe's summary; empty when all are there, or when the shrunk
    /// scenario cannot run (the metrics are then checked on the first finished runs).
    public static func problems(_ sweep: SweepFile) -> [ScenarioProblem] {
        guard let first = sweep.runs.first else { return [] }
        var scenario = first.resolved.replacing(["days"], with: .integer(1))
        if let size = scenario.at("population.size")?.intValue, size > probePeople {
            scenario = scenario.replacing(["population", "size"], with: .integer(probePeople))
        }
        let summary: Data
        do {
            let results = try Simulation(config: SimulationConfig(scenario: scenario, threads: 1)).run()
            summary = try JSONReport.encode(results.summary)
        } catch {
            return []
        }
        return sweep.metrics.compactMap { metric in
            do {
                _ = try SweepTables.values(summaryJSON: summary, path: "summary.json", metrics: [metric])
                return nil
            } catch {
                let text = "\(error)"
                return ScenarioProblem(file: sweep.file, line: metric.line, column: metric.column, path: "metrics",
                                       message: text.hasPrefix("summary.json: ") ? String(text.dropFirst("summary.json: ".count)) : text)
            }
        }
    }
}
