import ArgumentParser
import Foundation

@main
struct ENSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ensim",
        abstract: "Discrete-event simulator of exposure-notification apps (GAEN, Immuni, Corona-Warn-App) at country scale.",
        discussion: """
        Examples:
          ensim run Scenarios/default.yaml                 run a scenario; results go to Results/<name>/<run-id>/
          ensim run Scenarios/default.yaml --seed 7 --days 3 --out /tmp/run1
          ensim sweep Scenarios/sweeps/adoption.yaml       grid × replicates; results go to Results/sweeps/<name>/<time>/
          ensim validate Scenarios/*.yaml                  check scenario files without running them
          ensim scenario reference                         every scenario key, its type, unit, default and range
          ensim bench engine --json                        event-engine benchmark
          ensim p6 collisions                              P6 false-match study (seed setup)
        """,
        version: ENSimVersion.string,
        subcommands: [RunCommand.self, SweepCommand.self, ValidateCommand.self, ScenarioCommand.self, BenchCommand.self, GaenCommand.self,
                      RadioCommand.self, RegressCommand.self, SummaryCommand.self, ReportCommand.self, P6Command.self]
    )

    /// As ArgumentParser's, but a usage error (unknown option, missing or bad value) is one
    /// `error:` line pointing at `--help`, exit 64, instead of the message and the whole usage.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            let message = self.message(for: error).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
            let lowered = message.prefix(1).lowercased() + message.dropFirst()
            Console.error("error: \(lowered) (see `\((["ensim"] + subcommandPath()).joined(separator: " ")) --help`)")
            exit(withError: ExitCode(64))
        }
    }

    /// The subcommand names the arguments start with (`gaen export`).
    static func subcommandPath() -> [String] {
        var names: [String] = [], command: any ParsableCommand.Type = ENSim.self
        for argument in CommandLine.arguments.dropFirst() {
            guard let sub = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { break }
            names.append(argument)
            command = sub
        }
        return names
    }
}

enum ENSimVersion {
    static let string = "0.1.0"
}
