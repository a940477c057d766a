import Foundation
import GSL
import Reporting
import Scenario
import SimulationCore

/// sweep.csv (one row per run), sweep_summary.csv (one row per grid point: mean, standard deviation
/// and 95% Student-t interval across replicates, from GSL) and sweep_differences.csv (each point
/// against the first, replicate by replicate) from the run folders' summary.json files. All depend
/// only on the runs' results, never on the executor or the order runs finished in.
public enum SweepTables {
    public struct MetricError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The metrics of one finished run, in `metrics` order (nil: "n/a" in the summary, or a ratio over 0).
    /// - Throws: `MetricError` when a path is not in summary.json at all (a misspelt metric).
    public static func values(summaryJSON data: Data, path: String, metrics: [SweepMetric]) throws -> [ResultTable.Cell?] {
        guard let summary = try? JSONSerialization.jsonObject(with: data) else {
            throw MetricError(description: "\(path): is not JSON")
        }
        return try metrics.map { metric in
            let top = try value(summary, metric.numerator, metric: metric, path: path)
            guard let denominatorPath = metric.denominator else { return top }
            let bottom = try value(summary, denominatorPath, metric: metric, path: path)
            guard let n = top.flatMap(number), let d = bottom.flatMap(number), d != 0 else { return nil }
            return .number(n / d)
        }
    }

    static func value(_ summary: Any, _ keys: [String], metric: SweepMetric, path: String) throws -> ResultTable.Cell? {
        var node: Any = summary
        for (i, key) in keys.enumerated() {
            guard let object = node as? [String: Any], let next = object[key] else {
                let known = (node as? [String: Any]).map { " (keys there: " + $0.keys.sorted().joined(separator: ", ") + ")" } ?? ""
                throw MetricError(description: "\(path): metric '\(metric.name)': summary.json has no '\(keys[...i].joined(separator: "."))'\(known)")
            }
            node = next
        }
        // An interval or proportion gives its estimate.
        if let object = node as? [String: Any], let estimate = object["estimate"] { node = estimate }
        if node is String { return nil }  // "n/a"
        if let number = node as? NSNumber {
            // JSONReport writes 3.0 for a whole double: keep it a number ("d"/"f"); integers stay integers.
            let type = String(cString: number.objCType)
            if type == "c" || type == "B" { return .integer(number.boolValue ? 1 : 0) }
            return type == "d" || type == "f" ? .number(number.doubleValue) : .integer(number.int64Value)
        }
        throw MetricError(description: "\(path): metric '\(metric.name)' is not a number in summary.json (a block or a list); name one of its keys")
    }

    static func number(_ cell: ResultTable.Cell) -> Double? {
        switch cell {
        case .integer(let v): return Double(v)
        case .number(let v): return v
        default: return nil
        }
    }

    /// One row per run, in run order: run_id, point, replicate, seed, the varied keys, status, the metrics.
    public static func runs(_ plan: SweepPlan, results: [String: [ResultTable.Cell?]]) -> ResultTable {
        let sweep = plan.sweep
        var table = ResultTable(columns: ["run_id", "point", "replicate", "seed"] + sweep.variedKeys + ["status"] + sweep.metrics.map(\.name))
        for job in plan.jobs {
            let values = results[job.id]
            var row: [ResultTable.Cell] = [.text(job.id), .integer(Int64(job.run.point)), .integer(Int64(job.run.replicate)),
                                           .text(String(job.run.seed))]
            row += job.run.values.map(cell)
            row.append(.text(values == nil ? "failed" : "complete"))
            row += (values ?? Array(repeating: nil, count: sweep.metrics.count)).map { $0 ?? .text("") }
            table.append(row)
        }
        return table
    }

    /// One row per grid point: its values, the complete replicates, and per metric n, mean, sd and the
    /// 95% t interval of the mean (empty below two values).
    public static func summary(_ plan: SweepPlan, results: [String: [ResultTable.Cell?]]) -> ResultTable {
        let sweep = plan.sweep
        var columns = ["point"] + sweep.variedKeys + ["runs"]
        for metric in sweep.metrics {
            columns += ["n", "mean", "sd", "ci_lower", "ci_upper"].map { "\(metric.name):\($0)" }
        }
        var table = ResultTable(columns: columns)
        let byPoint = Dictionary(grouping: plan.jobs, by: \.run.point)
        for point in byPoint.keys.sorted() {
            let jobs = byPoint[point]!
            let complete = jobs.compactMap { results[$0.id] }
            var row: [ResultTable.Cell] = [.integer(Int64(point))] + jobs[0].run.values.map(cell) + [.integer(Int64(complete.count))]
            for m in sweep.metrics.indices {
                let data = complete.compactMap { $0[m].flatMap(number) }
                row.append(.integer(Int64(data.count)))
                guard !data.isEmpty else { row += Array(repeating: .text(""), count: 4); continue }
                row.append(.number(Statistics.mean(data)))
                guard data.count >= 2 else { row += Array(repeating: .text(""), count: 3); continue }
                let interval = Statistics.meanConfidenceInterval(data, confidence: 0.95)
                row += [.number(Statistics.standardDeviation(data)), .number(interval.lower), .number(interval.upper)]
            }
            table.append(row)
        }
        return table
    }

    /// Paired differences from the first grid point: every point shares the replicates' seeds
    /// (common random numbers), so point p's replicate r minus point 0's replicate r removes the
    /// luck the two runs share, and the differences' t interval is far narrower than the two
    /// points' own intervals suggest. One row per point after the first; per metric the pairs
    /// where both runs gave a value, their mean difference, sd and 95% t interval (GSL), and how
    /// many pairs rose and fell. Nil with one grid point or one replicate: nothing to pair.
    public static func differences(_ plan: SweepPlan, results: [String: [ResultTable.Cell?]]) -> ResultTable? {
        let sweep = plan.sweep
        let byPoint = Dictionary(grouping: plan.jobs, by: \.run.point)
        guard byPoint.count > 1, sweep.replicates > 1 else { return nil }
        var columns = ["point"] + sweep.variedKeys + ["against_point"]
        for metric in sweep.metrics {
            columns += ["pairs", "mean_difference", "sd", "ci_lower", "ci_upper", "rose", "fell"].map { "\(metric.name):\($0)" }
        }
        var table = ResultTable(columns: columns)
        let reference = Dictionary(uniqueKeysWithValues: byPoint[0]!.map { ($0.run.replicate, results[$0.id]) })
        for point in byPoint.keys.sorted() where point > 0 {
            let jobs = byPoint[point]!
            var row: [ResultTable.Cell] = [.integer(Int64(point))] + jobs[0].run.values.map(cell) + [.integer(0)]
            for m in sweep.metrics.indices {
                let pairs = jobs.compactMap { job -> Double? in
                    guard let here = results[job.id]?[m].flatMap(number), let there = reference[job.run.replicate]??[m].flatMap(number) else { return nil }
                    return here - there
                }
                row.append(.integer(Int64(pairs.count)))
                guard pairs.count >= 2 else {
                    row += (pairs.first.map { [.number($0)] } ?? [.text("")]) + Array(repeating: .text(""), count: 3)
                    row += [.integer(Int64(pairs.filter { $0 > 0 }.count)), .integer(Int64(pairs.filter { $0 < 0 }.count))]
                    continue
                }
                let interval = Statistics.meanConfidenceInterval(pairs, confidence: 0.95)
                row += [.number(Statistics.mean(pairs)), .number(Statistics.standardDeviation(pairs)), .number(interval.lower), .number(interval.upper),
                        .integer(Int64(pairs.filter { $0 > 0 }.count)), .integer(Int64(pairs.filter { $0 < 0 }.count))]
            }
            table.append(row)
        }
        return table
    }

    static func cell(_ value: ValueTree) -> ResultTable.Cell {
        switch value {
        case .integer(let v): return .integer(v)
        case .number(let v): return .number(v)
        case .boolean(let v): return .boolean(v)
        case .text(let v): return .text(v)
        default: return .text("")
        }
    }
}
