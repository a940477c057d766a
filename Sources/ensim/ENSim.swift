import ArgumentParser

@main
struct ENSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ensim",
        abstract: "Discrete-event simulator of exposure-notification apps (GAEN, Immuni, Corona-Warn-App) at country scale.",
        discussion: """
        Examples:
          ensim run Scenarios/default.yaml                 run a scenario; results go to Results/<name>/<run-id>/
          ensim run Scenarios/default.yaml --seed 7 --days 3 --out /tmp/run1
          ensim validate Scenarios/*.yaml                  check scenario files without running them
          ensim scenario reference                         every scenario key, its type, unit, default and range
          ensim bench engine --json                        event-engine benchmark
          ensim p6 collisions                              P6 false-match study (seed setup)
        """,
        version: ENSimVersion.string,
        subcommands: [RunCommand.self, ValidateCommand.self, ScenarioCommand.self, BenchCommand.self, GaenCommand.self,
                      RadioCommand.self, RegressCommand.self, P6Command.self]
    )
}

enum ENSimVersion {
    static let string = "0.1.0"
}
