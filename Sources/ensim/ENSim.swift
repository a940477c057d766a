import ArgumentParser
import Foundation

@main
struct ENSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ensim",
        abstract: "Discrete-event simulator of exposure-notification apps (GAEN, Immuni, Corona-Warn-App) at country scale.",
        discussion: """
        Examples:
          ensim run Scenarios/default.yaml
              run a scenario; results go to Results/<name>/<run-id>/
          ensim run Scenarios/default.yaml --seed 7 --days 3 --out /tmp/run1
          ensim summary RUN_FOLDER         what a finished run found
          ensim sweep Scenarios/sweeps/adoption.yaml
              grid × replicates; results go to Results/sweeps/<name>/<time>/
          ensim validate Scenarios/*.yaml  check scenario files without running them
          ensim scenario reference         every key: type, unit, default, range
          ensim bench engine --json        event-engine benchmark
          ensim p6 collisions              P6 false-match study (the seed's setup)
        """,
        version: ENSimVersion.string,
        subcommands: [RunCommand.self, SweepCommand.self, ValidateCommand.self, ScenarioCommand.self, BenchCommand.self, GaenCommand.self,
                      RadioCommand.self, RegressCommand.self, SummaryCommand.self, ReportCommand.self, P6Command.self]
    )

    /// As ArgumentParser's, but a usage error (unknown option, missing or bad value) is one
    /// `error:` line pointing at `--help`, exit 64, instead of the message and the whole usage.
    static func main() {
        MallocTuning.apply()
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

/// glibc hands blocks above 128 kB back to the kernel at each free and faults them in again,
/// zeroed: every hourly package's deflate state (~400 kB) paid that, ~15% of a small run's day.
/// Blocks up to 1 MiB now stay on the heap, and up to 2 MiB free at its top (peak memory +1%).
enum MallocTuning {
    static func apply() {
        #if os(Linux)
        // mallopt is not in Swift's Glibc module; M_TRIM_THRESHOLD = -1, M_MMAP_THRESHOLD = -3 (malloc.h).
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-3, 1 << 20)
        _ = mallopt(-1, 2 << 20)
        #endif
    }
}

enum ENSimVersion {
    static let string = "0.1.0"
}
