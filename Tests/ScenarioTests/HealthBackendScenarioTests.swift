import Detection
import Foundation
import HealthBackend
@testable import Scenario
import Simulation
import Testing
import TestSupport

@Suite struct HealthBackendScenarioTests {
    @Test func defaultsMatchTheServers() throws {
        let v = try ScenarioLoader.parse(yaml: "", file: "x.yaml", defaultName: "x")
        let c = SimulationConfig(scenario: v, threads: 1)
        #expect(c.backend.flavor == .cwa && c.backend.effectiveMaxKeysPerUpload == 14)
        #expect(c.backend.minKeysPerPackage == 140 && c.backend.effectiveMaxKeysPerPackage == 600_000)
        #expect(c.backend.expiryPolicyMinutes == 120 && c.backend.retentionDays == 14)
        #expect(c.backend.otpValiditySeconds == 150 && !c.backend.keepExports)
        #expect(c.health.casesCSV == nil && c.health.uploadConsentShare == 0.6)
        let immuni = SimulationConfig(scenario: try ScenarioLoader.parse(yaml: "backend:\n  flavor: immuni\noutputs:\n  exports: true\n",
                                                                          file: "x.yaml", defaultName: "x"), threads: 1)
        #expect(immuni.backend.flavor == .immuni && immuni.backend.effectiveMaxKeysPerUpload == 30)
        #expect(immuni.backend.effectiveMaxKeysPerPackage == 10_000 && immuni.backend.keepExports)
    }

    @Test func uploadFailureKeysBindAndAreOffByDefault() throws {
        let off = SimulationConfig(scenario: try ScenarioLoader.parse(yaml: "", file: "x.yaml", defaultName: "x"), threads: 1)
        #expect(off.backend.uploadFailureShare == 0 && off.backend.cwaTokenLossShare == 0)
        let yaml = """
            backend:
              upload_failure:
                share: 0.1
                retry_delay_minutes_mean: 30
                retry_delay_minutes_sd: 5
                max_attempts: 4
              cwa_token_loss_share: 0.02

            """
        let c = SimulationConfig(scenario: try ScenarioLoader.parse(yaml: yaml, file: "x.yaml", defaultName: "x"), threads: 1)
        #expect(c.backend.uploadFailureShare == 0.1 && c.backend.uploadMaxAttempts == 4 && c.backend.cwaTokenLossShare == 0.02)
        #expect(c.backend.uploadRetryDelayMinutes == Delay(mean: 30, sd: 5))
        #expect(problems("backend:\n  upload_failure:\n    max_attempts: 0\n").first?.contains("backend.upload_failure.max_attempts") == true)
    }

    @Test func badValuesGiveOneLineErrors() {
        #expect(problems("backend:\n  flavor: germany\n").first?.hasPrefix("s.yaml:2:11: backend.flavor:") == true)
        #expect(problems("health:\n  upload_consent_share: 1.5\n").first?.contains("health.upload_consent_share: 1.5 is out of range") == true)
        #expect(problems("backend:\n  min_keys_per_pakage: 3\n").first?.contains("did you mean 'min_keys_per_package'") == true)
    }

    @Test func casesCSVIsResolvedRelativeToTheScenarioAndChecked() throws {
        let dir = TestFolder.url("ensim-csv")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("data"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "date,cases\n2020-10-01,3\n".write(to: dir.appendingPathComponent("data/c.csv"), atomically: true, encoding: .utf8)
        let good = dir.appendingPathComponent("good.yaml"), bad = dir.appendingPathComponent("bad.yaml")
        try "days: 1\nhealth:\n  cases_csv: data/c.csv\n".write(to: good, atomically: true, encoding: .utf8)
        try "health:\n  cases_csv: data/missing.csv\n".write(to: bad, atomically: true, encoding: .utf8)
        let loaded = try ScenarioLoader.load(file: good.path)
        #expect(loaded.resolved.at("health.cases_csv")?.textValue == dir.appendingPathComponent("data/c.csv").standardizedFileURL.path)
        do {
            _ = try ScenarioLoader.load(file: bad.path)
            Issue.record("missing CSV accepted")
        } catch {
            #expect(error.description == "\(bad.path): health.cases_csv: \(dir.appendingPathComponent("data/missing.csv").standardizedFileURL.path): cannot read the cases CSV (health.cases_csv)")
        }
    }

    /// Whatever validates must run: a cases CSV must cover every simulated day, once each, and
    /// CRLF line ends, a byte-order mark and quoted fields read like plain LF text.
    @Test func casesCSVCoverageDuplicatesAndRFC4180() throws {
        let dir = TestFolder.url("ensim-csv-cover")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func load(_ csv: String, days: Int = 2) throws -> LoadedScenario {
            let data = dir.appendingPathComponent("c-\(UUID().uuidString).csv"), file = dir.appendingPathComponent("s.yaml")
            try Data(csv.utf8).write(to: data)
            try "start: 2020-10-01\ndays: \(days)\nhealth:\n  cases_csv: \(data.lastPathComponent)\n".write(to: file, atomically: true, encoding: .utf8)
            return try ScenarioLoader.load(file: file.path)
        }
        let plain = "date,cases\n2020-10-01,3\n2020-10-02,4\n"
        for variant in [plain, plain.replacingOccurrences(of: "\n", with: "\r\n"), "\u{FEFF}" + plain,
                        "# comment\n\"date\",\"cases\"\n\"2020-10-01\", 3\n\n2020-10-02,4\r\n"] {
            #expect(throws: Never.self, "\(variant.debugDescription)") { _ = try load(variant) }
        }
        #expect(throws: ScenarioError.self) { _ = try load(plain, days: 3) }
        do { _ = try load(plain, days: 3) } catch {
            #expect("\(error)".hasSuffix("no row for 2020-10-03, a simulated day (health.cases_csv)"), "\(error)")
        }
        do { _ = try load(plain + "2020-10-01,5\n") ; Issue.record("duplicate date accepted") } catch {
            #expect("\(error)".contains(":4: 2020-10-01 appears twice (first on line 2)"), "\(error)")
        }
    }

    /// A country's counts with a town's scale mistyped (or a count with digits to spare) would
    /// make everyone a case on day one, and GSL's Poisson sampler hung on such means: refused by
    /// the first simulated day over the population, with the scale to lower.
    @Test func casesCSVExpectingMoreResultsThanPeopleIsRefused() throws {
        let dir = TestFolder.url("ensim-csv-fits")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("c.csv"), file = dir.appendingPathComponent("s.yaml")
        try Data("date,cases\n2020-10-01,300\n2020-10-02,99999999999999999999\n2020-10-03,1\n".utf8).write(to: data)
        func load(days: Int, scale: Double) throws -> LoadedScenario {
            try """
                start: 2020-10-01
                days: \(days)
                population:
                  size: 1000
                health:
                  cases_csv: c.csv
                  cases_csv_scale: \(scale)
                """.write(to: file, atomically: true, encoding: .utf8)
            return try ScenarioLoader.load(file: file.path)
        }
        #expect(throws: Never.self) { _ = try load(days: 1, scale: 1) }
        do { _ = try load(days: 1, scale: 4); Issue.record("1,200 results a day in a town of 1,000 accepted") } catch {
            #expect("\(error)".hasSuffix("2020-10-01 has 300 results, 1,200 a day after health.cases_csv_scale 4: more than the population (1,000); each person can test positive once"), "\(error)")
        }
        do { _ = try load(days: 3, scale: 1e-9); Issue.record("1e11 results a day accepted") } catch {
            #expect("\(error)".contains("2020-10-02 has 100,000,000,000,000,000,000 results"), "\(error)")
        }
    }
}
