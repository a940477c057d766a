import ArgumentParser
import Detection
import Scenario
import Simulation

extension ScenarioCommand {
    struct Preset: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a detection preset with all its values (the files in Scenarios/presets/).",
            discussion: "ensim scenario preset cwa-v2 > Scenarios/presets/cwa-v2.yaml")

        @Argument(help: "The preset.")
        var name: DetectionPreset

        func run() throws { print(DetectionPresetFile.yaml(name), terminator: "") }
    }
}

extension DetectionPreset: ExpressibleByArgument {}
