import ArgumentParser
import Scenario
import Simulation

extension ScenarioCommand {
    struct Preset: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a detection preset with all its values (the files in Scenarios/presets/).",
            discussion: "ensim scenario preset cwa-v2 > Scenarios/presets/cwa-v2.yaml")

        @Argument(help: "One of: \(DetectionPreset.allCases.map(\.rawValue).joined(separator: ", ")).")
        var name: String

        func validate() throws {
            guard DetectionPreset(rawValue: name) != nil else {
                throw ValidationError("unknown preset '\(name)'; expected one of \(DetectionPreset.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }

        func run() throws { print(DetectionPresetFile.yaml(DetectionPreset(rawValue: name)!), terminator: "") }
    }
}
