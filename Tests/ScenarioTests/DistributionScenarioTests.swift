import Distribution
import Foundation
@testable import Scenario
import Simulation
import Testing

@Suite struct DistributionScenarioTests {
    @Test func defaultsMapToTheDistributionParameters() throws {
        let v = try ScenarioLoader.parse(yaml: "", file: "s.yaml", defaultName: "s")
        #expect(SimulationConfig(scenario: v, threads: 1).distribution == DistributionParameters.default)
        let w = try ScenarioLoader.parse(yaml: "distribution:\n  clients: 30_000_000\n  retry: {max_s: 600}\n  cdn: {error_rate: 0.01, outage_start_s: 7200, outage_duration_s: 1800}\n  offline_share: {ios: 0.1}\n",
                                         file: "s.yaml", defaultName: "s")
        let d = SimulationConfig(scenario: w, threads: 1).distribution
        #expect(d.clients == 30_000_000 && d.retryMaxSeconds == 600 && d.cdnErrorRate == 0.01)
        #expect(d.outageStartSeconds == 7_200 && d.outageDurationSeconds == 1_800)
        #expect(d.offlineShareIOS == 0.1 && d.offlineShareAndroid == 0.05)
        #expect(d.configBytes == 0 && !d.countsConfig && !d.skipsEmptyPackages)
        let c = try ScenarioLoader.parse(yaml: "distribution:\n  config_download_bytes: 3500\n  skip_empty_packages: true\n",
                                         file: "s.yaml", defaultName: "s")
        let e = SimulationConfig(scenario: c, threads: 1).distribution
        #expect(e.configBytes == 3_500 && e.countsConfig && e.skipsEmptyPackages)
    }

    @Test func badDistributionValuesGiveOneLineErrors() {
        #expect(problems("distribution:\n  check_jitter_s: 0\n")
            == ["s.yaml:2:19: distribution.check_jitter_s: 0 is out of range; expected an integer from 1 to 86400 (seconds)"])
        #expect(problems("distribution:\n  cdn:\n    error_rate: 2\n").first?.contains("distribution.cdn.error_rate: 2 is out of range") == true)
        #expect(problems("distribution:\n  retry: {initial_s: 100, max_s: 50}\n").first?.contains("distribution.retry: initial_s (100) must not exceed max_s (50)") == true)
        #expect(problems("distribution:\n  clinets: 5\n").first?.contains("did you mean 'clients'") == true)
    }
}
