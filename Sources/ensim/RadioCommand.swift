import ArgumentParser
import Foundation
import Simulation
import World

/// `ensim radio …`: look at the Bluetooth channel model on its own.
struct RadioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "radio",
        abstract: "Bluetooth channel model tools.",
        subcommands: [Calibrate.self]
    )

    struct Calibrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Simulated attenuation (typical attenuation of a scan window, dB) against distance, default model.",
            discussion: "Example: ensim radio calibrate --layer transport --json > attenuation.json; python3 plot-scripts/plot_attenuation.py attenuation.json"
        )

        @Option(help: "Contact layer (environment).")
        var layer = ContactLayer.household

        @Option(parsing: .unconditional, help: "Scan windows per distance.")
        var samples = 20_000

        @Option(parsing: .unconditional, help: "Seed.")
        var seed: UInt64 = 1

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            guard samples >= 2 else { throw ValidationError("--samples must be at least 2") }
        }

        func run() throws {
            let rows = AttenuationCalibration.table(parameters: .default, layer: layer, samples: samples, seed: seed)
            if json {
                let objects: [[String: Any]] = rows.map {
                    ["metres": $0.metres, "windows": $0.windows, "heard_share": $0.heardShare, "mean_db": $0.mean, "sd_db": $0.sd,
                     "p10_db": $0.p10, "p50_db": $0.p50, "p90_db": $0.p90]
                }
                let data = try JSONSerialization.data(withJSONObject: ["layer": layer.name, "rows": objects], options: [.prettyPrinted, .sortedKeys])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            print("| distance (m) | heard | mean (dB) | sd | p10 | p50 | p90 |")
            print("|---|---|---|---|---|---|---|")
            for r in rows {
                print(String(format: "| %.1f | %.0f%% | %.1f | %.1f | %.0f | %.0f | %.0f |", r.metres, r.heardShare * 100, r.mean, r.sd, r.p10, r.p50, r.p90))
            }
        }
    }
}

extension ContactLayer: ExpressibleByArgument {
    public init?(argument: String) {
        guard let layer = Self.allCases.first(where: { $0.name == argument }) else { return nil }
        self = layer
    }

    public var defaultValueDescription: String { name }

    public static var allValueStrings: [String] { allCases.map(\.name) }
}
