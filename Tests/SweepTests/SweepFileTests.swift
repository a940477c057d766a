import Foundation
@testable import Scenario
import Testing
import TestSupport

/// A folder with a small base scenario and the sweep files a test writes beside it.
struct SweepFixture {
    let folder: URL

    static let base = """
        name: tiny
        seed: 5
        days: 2
        population:
          size: 300
        outputs:
          hourly: false
        """

    init() {
        folder = TestFolder.url("ensim-sweep")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? Self.base.write(to: folder.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
    }

    /// Writes `text` as s.yaml and loads it.
    func load(_ text: String) throws(ScenarioError) -> SweepFile {
        try SweepLoader.load(file: write(text))
    }

    func write(_ text: String, name: String = "s.yaml") -> String {
        let url = folder.appendingPathComponent(name)
        try? text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The one-line problems a sweep text gives, with the folder left out of the file name.
    func problems(_ text: String) -> [String] {
        do {
            _ = try load(text)
            return []
        } catch {
            return error.problems.map { $0.description.replacingOccurrences(of: folder.path + "/", with: "") }
        }
    }
}

@Suite struct SweepFileTests {
    let fixture = SweepFixture()

    @Test func gridIsAFullFactorialFirstKeySlowestThenReplicates() throws {
        let sweep = try fixture.load("""
            base: base.yaml
            replicates: 2
            grid:
              population.app_adoption: [0.2, 0.6]
              health.cases_per_day: [1, 3, 5]
            """)
        #expect(sweep.name == "s")
        #expect(sweep.pointCount == 6)
        #expect(sweep.runs.count == 12)
        #expect(sweep.variedKeys == ["population.app_adoption", "health.cases_per_day"])
        #expect(sweep.runs.map(\.id).prefix(4) == ["p00-r1", "p00-r2", "p01-r1", "p01-r2"])
        #expect(sweep.runs.map { $0.values.map(SweepPlanShown.text) }.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) == [
            ["0.2", "1"], ["0.2", "3"], ["0.2", "5"], ["0.6", "1"], ["0.6", "3"], ["0.6", "5"],
        ])
        let last = try #require(sweep.runs.last)
        #expect(last.resolved.at("population.app_adoption") == .number(0.6))
        #expect(last.resolved.at("health.cases_per_day") == .number(5))
        // Keys the sweep does not touch keep the base's values; the base's name names the runs.
        #expect(last.resolved.at("population.size") == .integer(300))
        #expect(last.resolved.at("name") == .text("tiny"))
    }

    @Test func zipVariesKeysTogetherAndCrossesWithTheGrid() throws {
        let sweep = try fixture.load("""
            base: base.yaml
            grid:
              population.app_adoption: [0.2, 0.4]
            zip:
              health.cases_per_day: [1, 2, 3]
              days: [2, 3, 4]
            set:
              population.size: 200
            """)
        #expect(sweep.pointCount == 6)
        #expect(sweep.variedKeys == ["population.app_adoption", "health.cases_per_day", "days"])
        let points = sweep.runs.map { $0.values.map(SweepPlanShown.text) }
        #expect(points[0] == ["0.2", "1", "2"] && points[2] == ["0.2", "3", "4"] && points[3] == ["0.4", "1", "2"])
        #expect(sweep.runs.allSatisfy { $0.resolved.at("population.size") == .integer(200) })
        #expect(sweep.runs[5].resolved.at("days") == .integer(4))
    }

    @Test func rangesIncludeTheEndAndStayAsWritten() throws {
        let sweep = try fixture.load("""
            base: base.yaml
            grid:
              population.app_adoption: {from: 0.1, to: 0.8, step: 0.1}
              app.detection.gaen_v2.attenuation_thresholds_db.near: {from: 60, to: 66, step: 3}
            """)
        let dims = sweep.dimensions
        #expect(dims[0].levels.map { $0[0] } == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8].map { .number($0) })
        #expect(dims[1].levels.map { $0[0] } == [.integer(60), .integer(63), .integer(66)])
        #expect(sweep.runs.count == 24)
    }

    @Test func replicateSeedsComeFromTheBaseSeed() throws {
        let sweep = try fixture.load("base: base.yaml\nreplicates: 4\ngrid:\n  population.app_adoption: [0.2, 0.4]\n")
        let seeds = sweep.runs.prefix(4).map(\.seed)
        #expect(seeds[0] == 5, "replicate 1 keeps the base scenario's seed")
        #expect(Set(seeds).count == 4)
        #expect(seeds.allSatisfy { $0 <= UInt64(Int64.max) })
        #expect(sweep.runs.suffix(4).map(\.seed) == seeds, "every grid point uses the same seeds")
        #expect(seeds == (1...4).map { SweepSeeds.seed(base: 5, replicate: $0) })
        #expect(SweepSeeds.seed(base: 6, replicate: 2) != seeds[1])
        #expect(sweep.runs.map { $0.resolved.at("seed") } == sweep.runs.map { .integer(Int64($0.seed)) })
    }

    @Test func runScenarioTextLoadsBackToTheSameResolvedScenario() throws {
        let sweep = try fixture.load("base: base.yaml\nreplicates: 2\ngrid:\n  population.app_adoption: [0.15]\n  backend.flavor: [immuni, cwa]\n")
        for run in sweep.runs {
            let reloaded = try ScenarioLoader.parse(yaml: run.scenarioYAML, file: "run.yaml", defaultName: "x")
            #expect(reloaded == run.resolved)
        }
        // Every shipped scenario survives the round trip too (presets, paths, text values).
        let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios")
        for name in try FileManager.default.contentsOfDirectory(atPath: scenarios.path) where name.hasSuffix(".yaml") {
            let loaded = try ScenarioLoader.load(file: scenarios.appendingPathComponent(name).path)
            #expect(try ScenarioLoader.parse(yaml: loaded.resolved.scenarioYAML, file: name, defaultName: "x") == loaded.resolved, "\(name)")
        }
    }

    @Test func shippedSweepsAreValid() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/sweeps")
        let adoption = try SweepLoader.load(file: folder.appendingPathComponent("adoption.yaml").path)
        #expect(adoption.runs.count == 40 && adoption.variedKeys == ["population.app_adoption"])
        #expect(adoption.runs.allSatisfy { $0.resolved.at("population.size") == .integer(5000) && $0.resolved.at("days") == .integer(21) })
        let overhead = try SweepLoader.load(file: folder.appendingPathComponent("overhead.yaml").path)
        #expect(overhead.runs.count == 50 && Set(overhead.runs.map(\.seed)).count == 50)
        let averted = try SweepLoader.load(file: folder.appendingPathComponent("epidemic-averted.yaml").path)
        #expect(averted.runs.count == 36 && averted.runs.allSatisfy { $0.resolved.at("epidemic.counterfactual") == .boolean(true) })
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".yaml") {
            #expect(throws: Never.self, "\(name)") { _ = try SweepLoader.load(file: folder.appendingPathComponent(name).path) }
        }
    }

    @Test func unknownKeyPathIsOneLineWithPosition() {
        let p = fixture.problems("base: base.yaml\ngrid:\n  population.app_adoptoin: [0.2]\n")
        #expect(p == ["s.yaml:3:3: grid.population.app_adoptoin: unknown key path: 'population' has no key 'app_adoptoin' (did you mean 'app_adoption'?); allowed: size, age_shares, adoption_model, app_adoption, app_adoption_by_age, ios_share, availability"])
        #expect(fixture.problems("base: base.yaml\nset:\n  population: 3\n").first?.hasPrefix("s.yaml:3:3: set.population: is a block, not a value") == true)
        #expect(fixture.problems("base: base.yaml\ngird: {}\n").first?.hasPrefix("s.yaml:2:1: gird: unknown key (did you mean 'grid'?)") == true)
    }

    @Test func valueOutOfRangeIsOneLineAtTheValue() {
        #expect(fixture.problems("base: base.yaml\ngrid:\n  population.app_adoption: [0.2, 1.5]\n")
                == ["s.yaml:3:34: grid.population.app_adoption: 1.5 is out of range; expected a number from 0 to 1 (share)"])
        // A range reaching past the key's range: each value outside is reported at the range.
        #expect(fixture.problems("base: base.yaml\ngrid:\n  population.app_adoption: {from: 0.5, to: 1.5, step: 0.25}\n") == [
            "s.yaml:3:28: grid.population.app_adoption: 1.25 is out of range; expected a number from 0 to 1 (share)",
            "s.yaml:3:28: grid.population.app_adoption: 1.5 is out of range; expected a number from 0 to 1 (share)",
        ])
        #expect(fixture.problems("base: base.yaml\nset:\n  backend.flavor: google\n").first?.hasPrefix("s.yaml:3:19: set.backend.flavor: 'google' is not allowed") == true)
        #expect(fixture.problems("base: base.yaml\nreplicates: 0\n") == ["s.yaml:2:13: replicates: 0 is out of range; expected an integer from 1 to 1000"])
    }

    @Test func zeroRunGridIsAnError() {
        #expect(fixture.problems("base: base.yaml\ngrid:\n  population.app_adoption: []\n")
                == ["s.yaml:3:28: grid.population.app_adoption: has no values, so the sweep expands to zero runs; give at least one value"])
        #expect(fixture.problems("base: base.yaml\ngrid:\n  days: {from: 5, to: 2, step: 1}\n")
                == ["s.yaml:3:9: grid.days: from 5 is above to 2, so the sweep expands to zero runs"])
    }

    @Test func otherMistakesAreReported() {
        #expect(fixture.problems("base: base.yaml\nzip:\n  days: [2, 3]\n  health.cases_per_day: [1]\n").first?
            .hasPrefix("s.yaml:4:25: zip.health.cases_per_day: has 1 values but zip.days has 2") == true)
        #expect(fixture.problems("base: base.yaml\ngrid:\n  seed: [1, 2]\n").first?.contains("grid.seed: the seed is set per replicate") == true)
        #expect(fixture.problems("base: base.yaml\ngrid:\n  days: [2]\nset:\n  days: 3\n").first?.contains("s.yaml:3:3: grid.days: this key is already varied or set (line 5)") == true)
        #expect(fixture.problems("base: base.yaml\ngrid:\n  backend.flavor: {from: 1, to: 2, step: 1}\n").first?.contains("needs a number key") == true)
        #expect(fixture.problems("base: base.yaml\nmetrics: [detection., a/b/c]\n").count == 2)
        #expect(fixture.problems("grid: {}\n") == ["s.yaml:1:1: missing key 'base': the scenario file the sweep varies, relative to this file"])
        #expect(fixture.problems("base: nope.yaml\n").first?.contains("base: the base scenario is not valid:") == true)
        // Keys valid one by one but not together: the whole scenario is checked at every point.
        let together = fixture.problems("base: base.yaml\ngrid:\n  app.detection.gaen_v2.attenuation_thresholds_db.near: [50, 60]\n")
        #expect(together.count == 1 && together[0].contains("point 0 (app.detection.gaen_v2.attenuation_thresholds_db.near=50) is not a valid scenario"), "\(together)")
    }

    @Test func metricsParseOneOrTwoPaths() throws {
        #expect(SweepMetric("detection.recall")?.numerator == ["detection", "recall"])
        let ratio = try #require(SweepMetric("detection.notified / health.index_cases"))
        #expect(ratio.name == "detection.notified/health.index_cases" && ratio.denominator == ["health", "index_cases"])
        #expect(SweepMetric("a..b") == nil && SweepMetric("a/b/c") == nil && SweepMetric("") == nil)
        let sweep = try fixture.load("base: base.yaml\n")
        #expect(sweep.metrics.map(\.name) == SweepMetric.defaults)
        #expect(sweep.runs.count == 1 && sweep.runs[0].id == "p00-r1")
    }
}

enum SweepPlanShown {
    static func text(_ v: ValueTree) -> String {
        switch v {
        case .integer(let i): return String(i)
        case .number(let d): return ValueTree.format(d)
        case .text(let t): return t
        default: return "?"
        }
    }
}
