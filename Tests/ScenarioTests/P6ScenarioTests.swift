import P6Phones
@testable import Scenario
import Simulation
import Testing

@Suite struct P6ScenarioTests {
    @Test func defaultsMapToTheModelDefaults() throws {
        let v = try ScenarioLoader.parse(yaml: "", file: "x.yaml", defaultName: "x")
        #expect(SimulationConfig(scenario: v, threads: 1).p6 == P6RunParameters.default)
    }

    @Test func valuesMap() throws {
        let yaml = """
        p6:
          enabled: true
          transmit:
            ios_share: 0
            mean_session_s: 300
          slice_s: 30
          rx_retention_days: 14
          match_threshold: 2
          match_window: 4
          minimum_epoch_age_h: 0
          disclosure_file_s: 900
        """
        let p = SimulationConfig(scenario: try ScenarioLoader.parse(yaml: yaml, file: "x.yaml", defaultName: "x"), threads: 1).p6
        #expect(p.enabled && p.transmit.iosShare == 0 && p.transmit.androidShare == 0.8 && p.transmit.meanSessionSeconds == 300)
        #expect(p.sliceSeconds == 30 && p.rxRetentionDays == 14 && p.matchThreshold == 2 && p.matchWindow == 4)
        #expect(p.minimumEpochAgeSeconds == 0 && p.disclosureFileSeconds == 900)
    }

    /// Fake disclosures, scaled replay and revocation by reports bind to their settings (hours scaled to seconds).
    @Test func attackKeysMap() throws {
        let yaml = """
        p6:
          attacks:
            fake_disclosure_share: 0.02
            fake_delay_mean_h: 36
            modified_client_share: 0.25
            minimum_app_age_h: 48
            attestation_reject_share: 0.9
            replay:
              attacks: 3
              relays: 500
              days: 2
          revocation:
            report_share: 0.3
            report_delay_h: 6
            report_threshold: 25
        """
        let p = SimulationConfig(scenario: try ScenarioLoader.parse(yaml: yaml, file: "x.yaml", defaultName: "x"), threads: 1).p6
        let a = p.attacks
        #expect(a.fakeDisclosureShare == 0.02 && a.fakeDelayMeanSeconds == 36 * 3_600 && a.modifiedClientShare == 0.25)
        #expect(a.minimumAppAgeSeconds == 48 * 3_600 && a.attestationRejectShare == 0.9)
        #expect(a.replayAttacks == 3 && a.replayRelays == 500 && a.replayDays == 2)
        #expect(p.reportShare == 0.3 && p.reportDelayMeanSeconds == 6 * 3_600 && p.reportThreshold == 25 && p.revokedShare == 0)
        #expect(problems("p6:\n  attacks:\n    replay:\n      relays: 0\n").first?.contains("p6.attacks.replay.relays: 0 is out of range") == true)
    }

    @Test func badValuesGiveOneLineNamingFieldAndAllowed() {
        #expect(problems("p6:\n  transmit:\n    ios_share: 1.5\n")
                == ["s.yaml:3:16: p6.transmit.ios_share: 1.5 is out of range; expected a number from 0 to 1 (share)"])
        #expect(problems("p6:\n  rx_retention_days: 0\n").first?.contains("p6.rx_retention_days: 0 is out of range; expected an integer from 1 to 60") == true)
        #expect(problems("p6:\n  match_threshold: 6\n").first?.contains("match_threshold (6) must not exceed match_window (5)") == true)
        #expect(problems("p6:\n  enable: true\n").first?.contains("p6.enable") == true)
    }
}
