import Foundation
import Reporting
import Scenario
import SimulationCore
@testable import Sweep
import Testing

@Suite struct SweepTablesTests {
    let fixture = SweepFixture()

    static let summaryJSON = Data("""
        {"health": {"index_cases": 4}, "detection": {"notified": 6, "recall": {"estimate": 0.25, "ci_lower": 0.1},
         "precision": {"estimate": "n/a", "trials": 0}}, "distribution": {"terabytes_per_day": 2.0}}
        """.utf8)

    @Test func metricsReadEstimatesRatiosAndMissingValues() throws {
        let metrics = ["detection.notified", "detection.recall", "detection.precision", "detection.notified / health.index_cases",
                       "distribution.terabytes_per_day"].compactMap(SweepMetric.init)
        let values = try SweepTables.values(summaryJSON: Self.summaryJSON, path: "summary.json", metrics: metrics)
        #expect(values == [.integer(6), .number(0.25), nil, .number(1.5), .number(2.0)])
        #expect(throws: SweepTables.MetricError.self) {
            try SweepTables.values(summaryJSON: Self.summaryJSON, path: "summary.json", metrics: [SweepMetric("detection.recal")!])
        }
        do {
            _ = try SweepTables.values(summaryJSON: Self.summaryJSON, path: "summary.json", metrics: [SweepMetric("detection.recal")!])
        } catch {
            #expect("\(error)".contains("summary.json has no 'detection.recal' (keys there: notified, precision, recall)"))
        }
        // A block is not a number.
        #expect(throws: SweepTables.MetricError.self) {
            try SweepTables.values(summaryJSON: Self.summaryJSON, path: "summary.json", metrics: [SweepMetric("health")!])
        }
    }

    @Test func summaryGivesMeanSdAndTIntervalPerPoint() throws {
        let sweep = try fixture.load("base: base.yaml\nreplicates: 3\ngrid:\n  population.app_adoption: [0.2, 0.4]\nmetrics: [detection.notified]\n")
        let plan = SweepPlan(sweep)
        // Point 0: 2, 4, 9; point 1: one run failed, one left: no sd or interval from a single value.
        let results: [String: [ResultTable.Cell?]] = ["p00-r1": [.integer(2)], "p00-r2": [.integer(4)], "p00-r3": [.integer(9)], "p01-r2": [.integer(7)]]
        let table = SweepTables.summary(plan, results: results)
        #expect(table.columns == ["point", "population.app_adoption", "runs", "detection.notified:n", "detection.notified:mean",
                                  "detection.notified:sd", "detection.notified:ci_lower", "detection.notified:ci_upper"])
        let row = table.rows[0]
        #expect(row[0] == .integer(0) && row[1] == .number(0.2) && row[2] == .integer(3) && row[3] == .integer(3))
        guard case .number(let mean) = row[4], case .number(let sd) = row[5], case .number(let lo) = row[6], case .number(let hi) = row[7] else {
            Issue.record("expected numbers, got \(row)")
            return
        }
        #expect(abs(mean - 5) < 1e-12)
        #expect(abs(sd - 13.0.squareRoot()) < 1e-12)
        // t(0.975, 2 df) = 4.302652729911275.
        #expect(abs(hi - (5 + 4.302652729911275 * 13.0.squareRoot() / 3.0.squareRoot())) < 1e-9)
        #expect(abs((mean - lo) - (hi - mean)) < 1e-9)
        #expect(table.rows[1] == [.integer(1), .number(0.4), .integer(1), .integer(1), .number(7), .text(""), .text(""), .text("")])

        let runs = SweepTables.runs(plan, results: results)
        #expect(runs.columns == ["run_id", "point", "replicate", "seed", "population.app_adoption", "status", "detection.notified"])
        #expect(runs.rows.count == 6)
        #expect(runs.rows[3] == [.text("p01-r1"), .integer(1), .integer(1), .text("5"), .number(0.4), .text("failed"), .text("")])
        #expect(String(decoding: CSVReport.encode(runs), as: UTF8.self).hasPrefix("run_id,point,replicate,seed,population.app_adoption,status,detection.notified\np00-r1,0,1,5,0.2,complete,2\n"))
    }

    @Test func differencesPairEachReplicateWithTheFirstPoint() throws {
        let sweep = try fixture.load("base: base.yaml\nreplicates: 3\ngrid:\n  population.app_adoption: [0.2, 0.4, 0.6]\nmetrics: [detection.notified]\n")
        let plan = SweepPlan(sweep)
        // Point 1 - point 0, replicate by replicate: 2, 3, 2. Point 2 lost its second run: pairs -1 and 0.
        let results: [String: [ResultTable.Cell?]] = [
            "p00-r1": [.integer(2)], "p00-r2": [.integer(4)], "p00-r3": [.integer(9)],
            "p01-r1": [.integer(4)], "p01-r2": [.integer(7)], "p01-r3": [.integer(11)],
            "p02-r1": [.integer(1)], "p02-r3": [.integer(9)],
        ]
        let table = try #require(SweepTables.differences(plan, results: results))
        #expect(table.columns == ["point", "population.app_adoption", "against_point"]
                + ["pairs", "mean_difference", "sd", "ci_lower", "ci_upper", "rose", "fell"].map { "detection.notified:\($0)" })
        #expect(table.rows.count == 2)
        let row = table.rows[0]
        #expect(row[0] == .integer(1) && row[1] == .number(0.4) && row[2] == .integer(0) && row[3] == .integer(3))
        guard case .number(let mean) = row[4], case .number(let sd) = row[5], case .number(let lo) = row[6], case .number(let hi) = row[7] else {
            Issue.record("expected numbers, got \(row)")
            return
        }
        #expect(abs(mean - 7.0 / 3) < 1e-12 && abs(sd - (1.0 / 3).squareRoot()) < 1e-12)
        // t(0.975, 2 df) = 4.302652729911275; the pairs' interval excludes 0, the points' own intervals overlap.
        #expect(abs(hi - (mean + 4.302652729911275 * sd / 3.0.squareRoot())) < 1e-9 && abs((mean - lo) - (hi - mean)) < 1e-9)
        #expect(lo > 0 && row[8] == .integer(3) && row[9] == .integer(0))
        #expect(table.rows[1][3] == .integer(2) && table.rows[1][4] == .number(-0.5) && table.rows[1][8] == .integer(0) && table.rows[1][9] == .integer(1))
        // One point, or one replicate: nothing to pair.
        #expect(SweepTables.differences(SweepPlan(try fixture.load("base: base.yaml\nreplicates: 3\n")), results: results) == nil)
        #expect(SweepTables.differences(SweepPlan(try fixture.load("base: base.yaml\ngrid:\n  population.app_adoption: [0.2, 0.4]\n")), results: results) == nil)
    }

    @Test func runHashesDependOnlyOnTheRunScenario() throws {
        let a = SweepPlan(try fixture.load("base: base.yaml\nreplicates: 2\ngrid:\n  population.app_adoption: [0.2, 0.4]\n"))
        // Another file with the same runs (a comment, another metric list): the same runs and hashes.
        let b = SweepPlan(try fixture.load("# same runs\nbase: base.yaml\nreplicates: 2\nmetrics: [detection.notified]\ngrid:\n  population.app_adoption: [0.2, 0.4]\n"))
        #expect(a.jobs.map(\.scenarioSHA256) == b.jobs.map(\.scenarioSHA256))
        #expect(a.runsSHA256 == b.runsSHA256 && a.fileSHA256 != b.fileSHA256)
        #expect(Set(a.jobs.map(\.scenarioSHA256)).count == 4)
        let c = SweepPlan(try fixture.load("base: base.yaml\nreplicates: 2\ngrid:\n  population.app_adoption: [0.2, 0.5]\n"))
        #expect(c.runsSHA256 != a.runsSHA256)
        #expect(a.text.contains("2 grid point(s) × 2 replicate(s) = 4 runs"))
    }
}
