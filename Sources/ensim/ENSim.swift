import ArgumentParser

@main
struct ENSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ensim",
        abstract: "Discrete-event simulator of exposure-notification apps at country scale.",
        version: ENSimVersion.string,
        subcommands: [BenchCommand.self, GaenCommand.self]
    )
}

enum ENSimVersion {
    static let string = "0.1.0"
}
