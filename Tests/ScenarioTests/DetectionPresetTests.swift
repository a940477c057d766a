import Detection
@testable import Scenario
import Simulation
import Testing

/// A preset is loaded before the keys a file gives and before the block's checks run.
@Suite struct DetectionPresetTests {
    func yaml(_ preset: DetectionPreset, _ block: String, _ key: String, _ value: Int) -> String {
        "app:\n  detection:\n    preset: \(preset.rawValue)\n    \(block):\n      attenuation_thresholds_db:\n        \(key): \(value)\n"
    }

    @Test func immuniWithALowThresholdBetweenCwaAndImmuniHighValidates() throws {
        let text = yaml(.immuni, "gaen_v1", "low", 65)
        #expect(problems(text).isEmpty)
        let v = try ScenarioLoader.parse(yaml: text, file: "s.yaml", defaultName: "s")
        #expect(v.at("app.detection.gaen_v1.attenuation_thresholds_db.high") == .integer(70))
        #expect(v.at("app.detection.gaen_v1.attenuation_thresholds_db.low") == .integer(65))
        var expected = ExposureConfigurationV1.immuni
        expected.durationAtAttenuationThresholds = [65, 70]
        #expect(DetectionParameters(scenario: v).model == .v1(expected))
    }

    @Test func immuniOverrideIsCheckedAgainstImmuniValues() {
        #expect(problems(yaml(.immuni, "gaen_v1", "high", 49))
                == ["s.yaml:6:9: app.detection.gaen_v1.attenuation_thresholds_db: low must be below high"])
    }

    @Test func cwaV1OverrideIsCheckedAgainstCwaV1Values() throws {
        let v = try ScenarioLoader.parse(yaml: yaml(.cwaV1, "gaen_v1", "low", 60), file: "s.yaml", defaultName: "s")
        var expected = ExposureConfigurationV1.cwaV1
        expected.durationAtAttenuationThresholds = [60, 63]
        #expect(DetectionParameters(scenario: v).model == .v1(expected))
        #expect(problems(yaml(.cwaV1, "gaen_v1", "low", 64))
                == ["s.yaml:6:9: app.detection.gaen_v1.attenuation_thresholds_db: low must be below high"])
    }

    @Test func cwaV2OverrideIsCheckedAgainstCwaV2Values() throws {
        let v = try ScenarioLoader.parse(yaml: yaml(.cwaV2, "gaen_v2", "near", 70), file: "s.yaml", defaultName: "s")
        var expected = DailySummariesConfigV2.cwaV2
        expected.attenuationBucketThresholds = [55, 70, 73]
        #expect(DetectionParameters(scenario: v).model == .v2(expected))
        let message = "thresholds must increase strictly: immediate < near < medium"
        #expect(problems(yaml(.cwaV2, "gaen_v2", "medium", 60))
                == ["s.yaml:6:9: app.detection.gaen_v2.attenuation_thresholds_db: \(message)"])
    }

    /// The preset may come after its overrides in the file: keys apply in schema order.
    @Test func presetWrittenAfterItsOverridesStillComesFirst() throws {
        let text = "app:\n  detection:\n    gaen_v1:\n      attenuation_thresholds_db:\n        low: 65\n    preset: immuni\n"
        #expect(problems(text).isEmpty)
        let v = try ScenarioLoader.parse(yaml: text, file: "s.yaml", defaultName: "s")
        #expect(v.at("app.detection.gaen_v1.attenuation_thresholds_db.high") == .integer(70))
        #expect(v.at("app.detection.gaen_v1.notify_threshold") == .number(20))
    }
}
