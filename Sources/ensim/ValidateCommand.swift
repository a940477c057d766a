import ArgumentParser
import Foundation
import Scenario
import Sweep

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scenario and sweep files: one line per problem (file:line:column: field.path: what is allowed); exit 2 if any.",
        discussion: "Example: ensim validate Scenarios/default.yaml Scenarios/cwa-bandwidth.yaml"
    )

    @Argument(help: "Scenario or sweep YAML files (a sweep names a base scenario).")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            do {
                if SweepLoader.isSweep(file: file) {
                    let sweep = try SweepLoader.load(file: file)
                    let problems = SweepMetricProbe.problems(sweep)
                    if !problems.isEmpty {
                        failed = true
                        Console.error(problems.map(\.description).joined(separator: "\n"))
                        continue
                    }
                    print("\(file): ok (sweep of \(sweep.runs.count) runs)")
                } else {
                    _ = try ScenarioLoader.load(file: file)
                    print("\(file): ok")
                }
            } catch {
                failed = true
                Console.error(error.description)
            }
        }
        if failed { throw ExitCode(2) }
    }
}

struct ScenarioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario",
        abstract: "Scenario file tools.",
        subcommands: [Reference.self, Preset.self]
    )

    struct Reference: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every scenario key with its type, unit, default, allowed range and meaning (Markdown).",
            discussion: "Scenarios/README.md is this output: ensim scenario reference > Scenarios/README.md"
        )

        func run() {
            print(ScenarioReference.markdown(), terminator: "")
        }
    }
}
