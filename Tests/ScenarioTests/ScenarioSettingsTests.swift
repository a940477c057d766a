@testable import Scenario
import Simulation
import Testing

/// Every leaf key of the schema with its dotted path.
func leaves(_ fields: [Field] = ScenarioSchema.fields, prefix: String = "") -> [(path: String, field: Field)] {
    fields.flatMap { field -> [(path: String, field: Field)] in
        if case .section(let children, _) = field.kind { return leaves(children, prefix: prefix + field.name + ".") }
        return [(prefix + field.name, field)]
    }
}

@Suite struct ScenarioSettingsTests {
    @Test func declaredDefaultsAreWhatAnEmptyScenarioResolvesTo() throws {
        let resolved = try ScenarioLoader.parse(yaml: "", file: "x.yaml", defaultName: "x")
        for (path, field) in leaves() where path != "name" {
            #expect(field.defaultValue != nil && resolved.at(path) == field.defaultValue, "\(path)")
        }
        #expect(resolved.at("name") == .text("x"))
    }

    @Test func anEmptyScenarioRunsWithTheSimulationDefaults() throws {
        let c = SimulationConfig(scenario: try ScenarioLoader.parse(yaml: "", file: "x.yaml", defaultName: "x"), threads: 1)
        #expect(c.availability == .default && c.contacts == .default && c.radio == .default && c.health == .default)
        #expect(c.backend == .default && c.distribution == .default && c.analytics == .default && c.p6 == .default)
        #expect(c.detection == .default && c.writeHourly)
        #expect(c == ScenarioSettings.default.simulationConfig(threads: 1).renamed("x"))
    }

    /// Each key is bound to a property of its own: changing one key changes that key alone.
    @Test func everyKeyHasItsOwnProperty() {
        let base = ValueTree(ScenarioSettings.default)
        for (path, field) in leaves() where path != "app.detection.preset" {
            guard let slot = field.slot, let value = field.defaultValue, let other = Self.otherValue(field.kind, than: value) else {
                Issue.record("\(path): no other value")
                continue
            }
            var settings = ScenarioSettings.default
            slot.write(&settings, other)
            let changed = ValueTree(settings)
            #expect(changed.at(path) == other, "\(path)")
            for (p, _) in leaves() where p != path {
                #expect(changed.at(p) == base.at(p), "\(path) also changed \(p)")
            }
        }
    }

    static func otherValue(_ kind: FieldKind, than value: ValueTree) -> ValueTree? {
        switch (kind, value) {
        case (.integer(let r), .integer(let v)): return .integer(v == r.upperBound ? r.lowerBound : r.upperBound)
        case (.number(let r), .number(let v)): return .number(v == r.upperBound ? r.lowerBound : r.upperBound)
        case (.boolean, .boolean(let v)): return .boolean(!v)
        case (.text, .text(let v)): return .text(v + "-other")
        case (.date, _): return .text("2021-02-28")
        case (.choice(let allowed), .text(let v)): return allowed.first { $0 != v }.map(ValueTree.text)
        default: return nil
        }
    }

    @Test func resolvedScenariosReadBackIntoTheSameSettings() throws {
        let texts = ["", "app:\n  detection:\n    preset: immuni\n",
                     "population:\n  adoption_model: by_age\nanalytics:\n  sweep: {points: 3}\n"]
        for yaml in texts {
            let settings = try ScenarioLoader.settings(yaml: yaml, file: "s.yaml", defaultName: "s")
            #expect(ScenarioSettings(resolved: ValueTree(settings)) == settings)
        }
    }
}

extension SimulationConfig {
    func renamed(_ name: String) -> SimulationConfig {
        var c = self
        c.name = name
        return c
    }
}
