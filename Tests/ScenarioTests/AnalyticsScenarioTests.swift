import Analytics
import EventEngine
@testable import Scenario
import Simulation
import Testing

@Suite struct AnalyticsScenarioTests {
    @Test func defaultsMapToTheModelDefaults() throws {
        let v = try ScenarioLoader.parse(yaml: "", file: "x.yaml", defaultName: "x")
        let config = SimulationConfig(scenario: v, threads: 1)
        var expected = AnalyticsParameters.default
        expected.enabled = false
        #expect(config.analytics == expected)
    }

    @Test func valuesMap() throws {
        let yaml = """
        analytics:
          enabled: true
          p_owoe: 0.2
          ios:
            check_time_ms: 1000
          android:
            quiet_after_install_h: 48
          phones:
            region_population:
              lombardia: 0
          sweep:
            points: 3
            min_p_owoe: 0.1
            max_p_owoe: 0.5
          attacks:
            ios_race_devices: 4
        """
        let config = SimulationConfig(scenario: try ScenarioLoader.parse(yaml: yaml, file: "x.yaml", defaultName: "x"), threads: 1)
        let a = config.analytics
        #expect(a.enabled && a.pWithoutExposure == 0.2 && a.checkTimeMs == 1_000)
        #expect(a.androidQuietAfterInstallSeconds == 48 * 3_600)
        #expect(a.regionWeights[2] == 0 && a.regionWeights[0] == 4_311_217)
        #expect(a.sweepPWithoutExposure == [0.1, 0.30000000000000004, 0.5])
        #expect(a.attacks.iOSRaceDevices == 4)
    }

    @Test func badValuesGiveOneLineNamingFieldAndAllowed() {
        #expect(problems("analytics:\n  p_owoe: 0\n") == ["s.yaml:2:11: analytics.p_owoe: 0 is out of range; expected a number from 0.0001 to 1 (probability)"])
        #expect(problems("analytics:\n  detections: live\n") == ["s.yaml:2:15: analytics.detections: 'live' is not allowed; expected one of synthetic, simulated"])
        #expect(problems("analytics:\n  ios:\n    device_check_latency_min_ms: 500\n    device_check_latency_max_ms: 100\n").first?
            .contains("analytics.ios: device_check_latency_min_ms (500) must not exceed device_check_latency_max_ms (100)") == true)
        #expect(problems("analytics:\n  attacks:\n    ios_race_burst: 1\n").first?.contains("analytics.attacks.ios_race_burst: 1 is out of range") == true)
    }
}
