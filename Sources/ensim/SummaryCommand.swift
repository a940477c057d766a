import ArgumentParser
import Foundation
import Reporting

struct SummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Print what a finished run found (the summary `ensim run` prints at its end).",
        discussion: """
        Examples:
          ensim summary Results/default/20201001T000000Z-seed20201001
          ensim summary /tmp/run1 --json
        """)

    @Argument(help: "A finished run folder.")
    var folder: String

    @Flag(help: "The same figures as JSON.")
    var json = false

    func run() throws {
        do {
            let run = try FinishedRun(folder: folder)
            let digest = try run.digest()
            print(json ? digest.json() : digest.text(folder: run.folder.path), terminator: "")
        } catch {
            throw Console.failure(error.description)
        }
    }
}
