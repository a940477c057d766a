import Foundation
import Testing
@testable import World

/// The fitted layers' defaults are the committed fits' values (rounded as the docs give them):
/// refitting with new data and forgetting the default, or the reverse, fails here.
@Suite struct FittedRadioDefaultsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fit(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent(path))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func number(_ fit: [String: Any], _ key: String) throws -> Double {
        try #require((fit[key] as? NSNumber)?.doubleValue, "\(key) missing")
    }

    @Test func workplaceIsTheIndoorFit() throws {
        let fit = try Self.fit("Results/studies/indoor-fit/workplace-fit.json")
        let radio = RadioParameters.default, layer = ContactLayer.workplace.rawValue
        #expect(fit["layer"] as? String == "workplace")
        #expect(abs(radio.pathLossExponent[layer] - (try Self.number(fit, "path_loss_exponent"))) < 0.01)
        #expect(abs(radio.shadowingSigma[layer] - (try Self.number(fit, "shadowing_sigma_db"))) < 0.01)
        // Not identified by RSSI of unknown calibration: the extra loss stays 0.
        #expect(radio.environmentLoss[layer] == 0)
    }

    @Test func transportIsTheTramFit() throws {
        let fit = try Self.fit("Results/studies/transport-fit.json")
        let radio = RadioParameters.default, layer = ContactLayer.transport.rawValue
        #expect(abs(radio.pathLossExponent[layer] - (try Self.number(fit, "path_loss_exponent"))) < 0.01)
        #expect(abs(radio.shadowingSigma[layer] - (try Self.number(fit, "shadowing_sigma_db"))) < 0.01)
        #expect(abs(radio.environmentLoss[layer] - (try Self.number(fit, "environment_loss_db"))) < 0.05)
    }
}
