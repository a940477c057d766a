import Foundation
import Scenario
import Testing

/// The defaults a scenario's keys declare are the values a run really uses: a scenario that sets
/// only its size and length resolves, in the run's manifest.json, to the declared defaults.
@Suite struct DeclaredDefaultsTests {
    @Test func manifestOfARunWithoutKeysHoldsTheDeclaredDefaults() throws {
        let dir = EnsimProcess.temporaryDirectory()
        let file = dir.appendingPathComponent("bare.yaml")
        try Data("name: bare\ndays: 1\npopulation:\n  size: 300\n".utf8).write(to: file)
        let out = dir.appendingPathComponent("run")
        let result = try EnsimProcess.run(["run", file.path, "--quiet", "--threads", "1", "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        let resolved = try #require((manifest as? [String: Any])?["resolved_scenario"] as? [String: Any])
        // The run's own peak memory (a run of 300 people needs more than 10 MB and less than 1 GB).
        let peak = try #require((manifest as? [String: Any])?["peak_memory_bytes"] as? Int)
        #expect(peak > 10 << 20 && peak < 1 << 30)

        var declared = ScenarioSettings.default
        declared.name = "bare"
        declared.days = 1
        declared.population.size = 300
        // Through JSON both ways, so that numbers compare by value.
        let expected = try JSONSerialization.jsonObject(with: JSONSerialization.data(withJSONObject: ValueTree(declared).jsonObject))
        #expect(NSDictionary(dictionary: resolved).isEqual(to: expected as! [String: Any]))
        // A key changed in the file changes the manifest: the comparison can fail.
        declared.population.size = 301
        let other = try JSONSerialization.jsonObject(with: JSONSerialization.data(withJSONObject: ValueTree(declared).jsonObject))
        #expect(!NSDictionary(dictionary: resolved).isEqual(to: other as! [String: Any]))
    }
}
