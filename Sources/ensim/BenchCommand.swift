import ArgumentParser
import Foundation

/// `ensim bench NAME`: each benchmark is a subcommand with its own options.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a benchmark (release build recommended: swift build -c release).",
        subcommands: [EngineBenchmark.self, CryptoBenchmark.self, PopulationBenchmark.self, BackendBenchmark.self,
                      DistributionBenchmark.self, MatcherBenchmark.self]
    )
}

/// Options every benchmark accepts.
struct BenchOutputOptions: ParsableArguments {
    @Flag(help: "Print the result as JSON.")
    var json = false

    @Option(help: "Also write the JSON result to this file (atomically).")
    var out: String?
}

/// Prints a benchmark result as sorted JSON or as `key: value` lines, and optionally saves the JSON.
func emitBenchResult(_ result: [String: Any], options: BenchOutputOptions) throws {
    let data = try JSONSerialization.data(withJSONObject: result, options: [.prettyPrinted, .sortedKeys])
    if options.json {
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    } else {
        for key in result.keys.sorted() {
            print("\(key): \(result[key]!)")
        }
    }
    if let out = options.out {
        try data.write(to: URL(fileURLWithPath: out), options: .atomic)
    }
}
