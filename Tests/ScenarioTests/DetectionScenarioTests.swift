import Detection
import Foundation
@testable import Scenario
import Simulation
import Testing

@Suite struct DetectionScenarioTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func detection(_ yaml: String) throws -> DetectionParameters {
        DetectionParameters(scenario: try ScenarioLoader.parse(yaml: yaml, file: "s.yaml", defaultName: "s"))
    }

    @Test func defaultIsCwaV2() throws {
        let d = try detection("")
        #expect(d == DetectionParameters.default && d.model == .v2(.cwaV2))
        #expect(d.gridAttenuations == [45, 50, 55, 60, 65, 70, 75, 80] && d.gridMinutes == [5, 10, 15, 20, 30])
    }

    @Test func presetFilesMatchTheBuiltInPresets() throws {
        for preset in DetectionPreset.allCases {
            let path = Self.root.appendingPathComponent("Scenarios/presets/\(preset.rawValue).yaml")
            let text = try String(contentsOf: path, encoding: .utf8)
            #expect(text == DetectionPresetFile.yaml(preset), "run: swift run ensim scenario preset \(preset.rawValue) > Scenarios/presets/\(preset.rawValue).yaml")
            let fromFile = DetectionParameters(scenario: try ScenarioLoader.load(file: path.path).resolved)
            #expect(fromFile.model == preset.model)
            // Selecting the preset by name alone gives the same model.
            #expect(try detection("app:\n  detection:\n    preset: \(preset.rawValue)\n").model == preset.model)
        }
    }

    @Test func keysOverrideThePresetOthersKeepIt() throws {
        let d = try detection("app:\n  detection:\n    preset: immuni\n    gaen_v1:\n      notify_threshold: 25\n      attenuation_thresholds_db:\n        high: 73\n")
        guard case .v1(let c) = d.model else { Issue.record("not v1"); return }
        var expected = ExposureConfigurationV1.immuni
        expected.notifyThreshold = 25
        expected.durationAtAttenuationThresholds = [50, 73]
        #expect(c == expected)
        let v2 = try detection("app:\n  detection:\n    gaen_v2:\n      attenuation_thresholds_db:\n        near: 70\n      infectiousness:\n        when_onset_missing: none\n")
        guard case .v2(let c2) = v2.model else { Issue.record("not v2"); return }
        #expect(c2.attenuationBucketThresholds == [55, 70, 73] && c2.infectiousnessWhenOnsetMissing == 0 && c2.notifyWeightedMinutes == 15)
    }

    @Test func badDetectionValuesNameFileAndPath() {
        #expect(problems("app:\n  detection:\n    preset: cwa\n").first?.hasPrefix("s.yaml:3:13: app.detection.preset: 'cwa' is not allowed") == true)
        #expect(problems("app:\n  detection:\n    gaen_v1:\n      duration_level_values:\n        0_min: 9\n")
                == ["s.yaml:5:16: app.detection.gaen_v1.duration_level_values.0_min: 9 is out of range; expected an integer from 0 to 8"])
        #expect(problems("app:\n  detection:\n    gaen_v2:\n      attenuation_thresholds_db:\n        near: 80\n")
                == ["s.yaml:5:9: app.detection.gaen_v2.attenuation_thresholds_db: thresholds must increase strictly: immediate < near < medium"])
        #expect(problems("app:\n  detection:\n    gaen_v2:\n      attenuation_weights:\n        near: 3\n").first?.contains("app.detection.gaen_v2.attenuation_weights.near: 3 is out of range; expected a number from 0 to 2.5") == true)
    }

    @Test func keyFileRateLimitIsOffByDefaultAndReadPerPlatform() throws {
        #expect(try detection("").keyFileRateLimit == KeyFileRateLimit() && !KeyFileRateLimit().isActive)
        let d = try detection("app:\n  detection:\n    key_file_rate_limit:\n      ios_files_per_day: 15\n      android_files_per_day: 20\n")
        #expect(d.keyFileRateLimit.filesPerDay(isIOS: true) == 15 && d.keyFileRateLimit.filesPerDay(isIOS: false) == 20)
        #expect(problems("app:\n  detection:\n    key_file_rate_limit:\n      ios_files_per_day: -1\n").first?
                    .contains("app.detection.key_file_rate_limit.ios_files_per_day: -1 is out of range; expected an integer from 0 to 1000") == true)
    }

    @Test func detectionScheduleIsOffByDefaultAndReadFromTheFile() throws {
        #expect(try detection("").schedule == DetectionSchedule() && !DetectionSchedule().isActive)
        let d = try detection("app:\n  detection:\n    schedule:\n      min_interval_s: 14400\n      max_per_utc_day: 6\n")
        #expect(d.schedule == DetectionSchedule(minIntervalSeconds: 14_400, maxPerUTCDay: 6) && d.schedule.isActive)
        #expect(problems("app:\n  detection:\n    schedule:\n      min_interval_s: -5\n").first?
                    .contains("app.detection.schedule.min_interval_s: -5 is out of range; expected an integer from 0 to 604800") == true)
    }
}

/// Issue 19's opt-in keys: per-platform detection schedules and the radio's fidelity options.
@Suite struct FidelityScenarioKeyTests {
    func settings(_ yaml: String) throws -> SimulationConfig {
        SimulationConfig(scenario: try ScenarioLoader.parse(yaml: yaml, file: "s.yaml", defaultName: "s"), threads: 1)
    }

    @Test func perPlatformScheduleKeysOverrideTheSharedValues() throws {
        let off = try settings("")
        #expect(off.detection.schedule.ios == .init() && !off.detection.schedule.isPerPlatform)
        let c = try settings("""
            app:
              detection:
                schedule:
                  min_interval_s: 14400
                  ios:
                    min_interval_s: 86400
                  android:
                    max_per_utc_day: 1
            """)
        let s = c.detection.schedule
        #expect(s.isPerPlatform && s.limits(isIOS: true) == (86_400, 0) && s.limits(isIOS: false) == (14_400, 1))
        #expect(problems("app:\n  detection:\n    schedule:\n      ios:\n        max_per_utc_day: -2\n").first?
                    .contains("app.detection.schedule.ios.max_per_utc_day: -2 is out of range; expected an integer from -1 to 1000") == true)
    }

    @Test func radioFidelityKeysAreReadAndChecked() throws {
        let off = try settings("")
        #expect(!off.radio.reciprocalShadowing && off.radio.androidScanIntervalRandomRangeSeconds == 0)
        let c = try settings("radio:\n  reciprocal_shadowing: true\n  android_scan_interval_random_range_s: 90\n")
        #expect(c.radio.reciprocalShadowing && c.radio.androidScanIntervalRandomRangeSeconds == 90 && c.radio.validate().isEmpty)
        // The shortest interval must stay longer than a scan window.
        #expect(problems("radio:\n  scan_period_s: 60\n  scan_window_s: 10\n  android_scan_interval_random_range_s: 50\n")
                    .contains { $0.contains("leaves a shortest interval of 10 s") })
    }
}
