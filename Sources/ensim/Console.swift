import ArgumentParser
import Foundation

/// Messages for people: errors on stderr, one line each.
enum Console {
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// Prints `error: message` on stderr and returns the exit code to throw.
    static func failure(_ message: String) -> ExitCode {
        error("error: \(message)")
        return ExitCode(1)
    }
}

/// `--threads`, shared by the commands that run parallel phases.
struct ThreadOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Worker threads (default: all cores). Simulated results do not depend on it.")
    var threads: Int?

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1, got \(threads)") }
    }

    /// The threads to use.
    var count: Int { threads ?? ProcessInfo.processInfo.activeProcessorCount }
}
