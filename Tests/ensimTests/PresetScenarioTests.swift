import Foundation
import Testing

/// A preset is resolved before the checks: Immuni's high threshold is 70 (cwa-v1's is 63),
/// so overriding only `low` with 65 is valid, validates and runs.
@Suite struct PresetScenarioTests {
    static let yaml = """
        name: immuni-low-65
        days: 1
        population:
          size: 300
        app:
          detection:
            preset: immuni
            gaen_v1:
              attenuation_thresholds_db:
                low: 65
        """

    @Test func immuniWithOnlyTheLowThresholdValidatesAndRuns() throws {
        let dir = EnsimProcess.temporaryDirectory()
        let file = dir.appendingPathComponent("immuni-low-65.yaml")
        try Data(Self.yaml.utf8).write(to: file)
        let validated = try EnsimProcess.run(["validate", file.path])
        #expect(validated.status == 0, "\(validated.stderr)")
        let out = dir.appendingPathComponent("run")
        let run = try EnsimProcess.run(["run", file.path, "--quiet", "--threads", "1", "--out", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any]
        let detection = (manifest?["resolved_scenario"] as? [String: Any]).flatMap { ($0["app"] as? [String: Any])?["detection"] as? [String: Any] }
        let thresholds = ((detection?["gaen_v1"] as? [String: Any])?["attenuation_thresholds_db"]) as? [String: Int]
        #expect(thresholds == ["low": 65, "high": 70])
    }

    @Test func aLowAboveThePresetsHighIsStillRefused() throws {
        let file = EnsimProcess.temporaryDirectory().appendingPathComponent("bad.yaml")
        try Data(Self.yaml.replacingOccurrences(of: "low: 65", with: "low: 75").utf8).write(to: file)
        let validated = try EnsimProcess.run(["validate", file.path])
        #expect(validated.status == 2)
        #expect(validated.stderr.contains("app.detection.gaen_v1.attenuation_thresholds_db"), "\(validated.stderr)")
    }
}
