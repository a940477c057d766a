import ArgumentParser

/// `ensim gaen …`: tools on the GAEN protocol library.
struct GaenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gaen",
        abstract: "Exposure Notification protocol tools: derive RPIs, inspect and build key export files.",
        subcommands: []
    )
}
