import ArgumentParser
import Foundation
import Simulation

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

        @Option(help: "Contact layer (environment): household, workplace, school, community, transport.")
        var layer = "household"

        @Option(help: "Scan windows per distance.")
        var samples = 20_000

        @Option(help: "Seed.")
        var seed: UInt64 = 1

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            guard ContactLayer.allCases.contains(where: { $0.name == layer }) else {
                throw ValidationError("--layer must be one of " + ContactLayer.allCases.map(\.name).joined(separator: ", ") + ", got '\(layer)'")
            }
            guard samples >= 2 else { throw ValidationError("--samples must be at least 2") }
        }

        func run() throws {
            let contactLayer = ContactLayer.allCases.first { $0.name == layer }!
            let rows = AttenuationCalibration.table(parameters: .default, layer: contactLayer, samples: samples, seed: seed)
            if json {
                let objects: [[String: Any]] = rows.map {
                    ["metres": $0.metres, "windows": $0.windows, "heard_share": $0.heardShare, "mean_db": $0.mean, "sd_db": $0.sd,
                     "p10_db": $0.p10, "p50_db": $0.p50, "p90_db": $0.p90]
                }
                let data = try JSONSerialization.data(withJSONObject: ["layer": layer, "rows": objects], options: [.prettyPrinted, .sortedKeys])
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
