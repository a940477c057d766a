import Foundation
import Testing

@Suite struct RunCommandTests {
    static let outputs = ["summary.json", "daily.csv", "hourly.csv"]

    func run(_ extra: [String]) throws -> (URL, EnsimProcess.Output) {
        let out = EnsimProcess.temporaryDirectory().appendingPathComponent("run")
        let result = try EnsimProcess.run(["run", "Scenarios/default.yaml", "--days", "2", "--quiet", "--out", out.path] + extra)
        return (out, result)
    }

    func contents(_ folder: URL, _ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// Same scenario and seed: byte-identical results, run twice and with 1 or 2 threads.
    @Test func resultsAreByteIdenticalAcrossRunsAndThreads() throws {
        let (a, ra) = try run(["--threads", "1", "--seed", "11"])
        let (b, rb) = try run(["--threads", "1", "--seed", "11"])
        let (c, rc) = try run(["--threads", "2", "--seed", "11"])
        for r in [ra, rb, rc] { #expect(r.status == 0, "\(r.stderr)") }
        for name in Self.outputs {
            #expect(try contents(a, name) == contents(b, name), "\(name) differs between identical runs")
            #expect(try contents(a, name) == contents(c, name), "\(name) differs between 1 and 2 threads")
        }
        let (d, _) = try run(["--threads", "1", "--seed", "12"])
        #expect(try contents(a, "summary.json") != contents(d, "summary.json"), "another seed must change results")
    }

    @Test func runFolderHasManifestAndResults() throws {
        let (folder, result) = try run(["--seed", "3"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == folder.path)
        let manifest = try JSONSerialization.jsonObject(with: contents(folder, "manifest.json")) as! [String: Any]
        #expect(manifest["seed"] as? String == "3")
        #expect((manifest["scenario_sha256"] as? String)?.count == 64)
        let resolved = manifest["resolved_scenario"] as! [String: Any]
        #expect(resolved["days"] as? Int == 2)
        #expect((resolved["population"] as! [String: Any])["size"] as? Int == 10_000)
        let daily = String(decoding: try contents(folder, "daily.csv"), as: UTF8.self).split(separator: "\n")
        #expect(daily.count == 3)
        #expect(daily[1].hasPrefix("0,2020-10-01,"))
        let hourly = String(decoding: try contents(folder, "hourly.csv"), as: UTF8.self).split(separator: "\n")
        #expect(hourly.count == 49)
        let summary = try JSONSerialization.jsonObject(with: contents(folder, "summary.json")) as! [String: Any]
        #expect((summary["contacts"] as? Int ?? 0) > 0)
        #expect((summary["scan_instances"] as? Int ?? 0) > 0)
        let bytes = summary["encounter_bytes_per_phone_day"] as! [String: Double]
        #expect(bytes["estimate"]! > 0 && bytes["ci_lower"]! <= bytes["estimate"]!)
        // Nothing else is left beside the finished folder (no staging folder).
        let siblings = try FileManager.default.contentsOfDirectory(atPath: folder.deletingLastPathComponent().path)
        #expect(siblings == ["run"])
    }

    @Test func existingOutputFolderIsRefused() throws {
        let dir = EnsimProcess.temporaryDirectory()
        let result = try EnsimProcess.run(["run", "Scenarios/default.yaml", "--days", "1", "--quiet", "--out", dir.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("already exists"))
    }

    @Test func badOverridesAreRejected() throws {
        let r = try EnsimProcess.run(["run", "Scenarios/default.yaml", "--days", "0"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("--days must be from 1 to 3650"))
        let t = try EnsimProcess.run(["run", "Scenarios/default.yaml", "--threads", "0"])
        #expect(t.status != 0 && t.stderr.contains("--threads"))
    }
}

@Suite struct ValidateCommandTests {
    @Test func validScenariosPass() throws {
        let r = try EnsimProcess.run(["validate", "Scenarios/default.yaml"])
        #expect(r.status == 0)
        #expect(r.stdout == "Scenarios/default.yaml: ok\n")
    }

    @Test func eachProblemIsOneLineWithExitStatus2() throws {
        let dir = EnsimProcess.temporaryDirectory()
        let bad = dir.appendingPathComponent("bad.yaml")
        try "days: many\npopulation:\n  app_adoptoin: 0.5\n  size: -3\nradio:\n  rpi_rotation_max_minutes: 25\n".write(to: bad, atomically: true, encoding: .utf8)
        let r = try EnsimProcess.run(["validate", bad.path])
        #expect(r.status == 2)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines == [
            "\(bad.path):1:7: days: expected an integer from 1 to 3650 (days), got many",
            "\(bad.path):3:3: population.app_adoptoin: unknown key (did you mean 'app_adoption'?); allowed keys: size, age_shares, adoption_model, app_adoption, app_adoption_by_age, ios_share, availability",
            "\(bad.path):4:9: population.size: -3 is out of range; expected an integer from 1 to 100000000 (people)",
            "\(bad.path):6:29: radio.rpi_rotation_max_minutes: 25 is out of range; expected an integer from 10 to 20 (minutes)",
        ])
        #expect(!r.stderr.contains("Fatal") && !r.stderr.contains("Stack"))
    }

    @Test func missingFileAndSyntaxErrors() throws {
        let missing = try EnsimProcess.run(["validate", "Scenarios/nope.yaml"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "Scenarios/nope.yaml: no such file; pass the path of a scenario YAML file, e.g. Scenarios/default.yaml\n")
        let dir = EnsimProcess.temporaryDirectory()
        let broken = dir.appendingPathComponent("broken.yaml")
        try "population: {size: 3\n".write(to: broken, atomically: true, encoding: .utf8)
        let syntax = try EnsimProcess.run(["validate", broken.path])
        #expect(syntax.status == 2)
        #expect(syntax.stderr.hasPrefix("\(broken.path):2:1: YAML syntax error"))
        #expect(syntax.stderr.split(separator: "\n").count == 1)
    }

    @Test func runRejectsInvalidScenarioWithStatus2() throws {
        let dir = EnsimProcess.temporaryDirectory()
        let bad = dir.appendingPathComponent("bad.yaml")
        try "seed: banana\n".write(to: bad, atomically: true, encoding: .utf8)
        let r = try EnsimProcess.run(["run", bad.path, "--quiet"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("seed: expected an integer"))
    }

    @Test func referenceListsEveryKey() throws {
        let r = try EnsimProcess.run(["scenario", "reference"])
        #expect(r.status == 0)
        for key in ["`seed`", "`population.size`", "`radio.rpi_rotation_min_minutes`", "`outputs.hourly`"] {
            #expect(r.stdout.contains(key))
        }
    }
}

@Suite struct ModelValidationTests {
    @Test func badModelValuesNameTheirFieldPath() throws {
        let dir = EnsimProcess.temporaryDirectory()
        let bad = dir.appendingPathComponent("model.yaml")
        try """
        radio:
          shadowing_sigma_db:
            transport: -2
          path_loss_exponent:
            bus: 1.0
          placement_shares: {hand: 0.5, pocket: 0.5, bag: 0.5}
        contacts:
          community_dispersion: 0

        """.write(to: bad, atomically: true, encoding: .utf8)
        let r = try EnsimProcess.run(["validate", bad.path])
        #expect(r.status == 2)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.contains { $0.contains("radio.shadowing_sigma_db.transport: -2 is out of range; expected a number from 0 to 30 (dB)") })
        #expect(lines.contains { $0.contains("radio.path_loss_exponent.bus: unknown key; allowed keys: household, workplace, school, community, transport") })
        #expect(lines.contains { $0.contains("radio.placement_shares: shares must sum to 1, got 1.5") })
        #expect(lines.contains { $0.contains("contacts.community_dispersion: 0 is out of range") })
    }
}
