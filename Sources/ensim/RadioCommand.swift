import ArgumentParser
import Foundation
import Detection
import Scenario
import Simulation
import World

/// `ensim radio …`: look at the Bluetooth channel model on its own.
struct RadioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "radio",
        abstract: "Bluetooth channel model tools.",
        subcommands: [Calibrate.self, Tram.self, Fit.self]
    )

    struct Tram: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Leith & Farrell's Dublin tram experiment: the June 2020 detection rules on the measured and on ENSim's attenuations.",
            discussion: "Example: ensim radio tram --replicates 200 --json > Results/studies/dublin-tram.json"
        )

        @OptionGroup var tram: TramData

        @Option(parsing: .unconditional, help: "Simulated contacts per measured pair.")
        var replicates = 200

        @Option(parsing: .unconditional, help: "Seed of the simulated contacts (with --scenario: the scenario's seed).")
        var seed: UInt64?

        @Option(parsing: .unconditional, help: """
            A scenario file whose radio block and seed the simulated contacts use, e.g. Scenarios/studies/dublin-tram.yaml \
            (default: the default radio, seed 1).
            """)
        var scenario: String?

        @Option(parsing: .unconditional, help: "A pair at most this far apart is a close contact (m).")
        var closeMetres = 2.0

        func validate() throws {
            guard seed == nil || scenario == nil else { throw ValidationError("--seed and --scenario exclude each other: the scenario sets the seed") }
            guard (1...100_000).contains(replicates) else { throw ValidationError("--replicates must be from 1 to 100000") }
            guard closeMetres > 0, closeMetres.isFinite else { throw ValidationError("--close-metres must be a distance > 0") }
        }

        func run() throws {
            var study = TramStudy(measurements: try tram.measurements())
            let (data, json) = (tram.data, tram.json)
            study.closeMetres = closeMetres
            var (radio, seed) = (RadioParameters.default, self.seed ?? 1)
            if let scenario {
                let loaded: LoadedScenario
                do { loaded = try ScenarioLoader.load(file: scenario) } catch {
                    Console.error(error.description)
                    throw ExitCode(2)
                }
                let config = SimulationConfig(scenario: loaded.resolved, threads: 1)
                (radio, seed) = (config.radio, config.seed)
            }
            let rules: [DetectionPreset] = [.swisscovid, .cwaV1, .immuni]
            let outcomes = study.run(rules: rules.map { ($0.rawValue, $0.model) }, replicates: replicates, radio: radio, seed: seed)
            if json {
                let objects: [[String: Any]] = outcomes.map { o in
                    let tp = o.truePositiveRate, fp = o.falsePositiveRate
                    return ["rule": o.rule, "source": o.source, "close_pairs": o.close, "close_notified": o.closeNotified,
                            "far_pairs": o.far, "far_notified": o.farNotified,
                            "true_positive_rate": tp.estimate, "true_positive_ci": [tp.interval.lower, tp.interval.upper],
                            "false_positive_rate": fp.estimate, "false_positive_ci": [fp.interval.lower, fp.interval.upper]]
                }
                var report: [String: Any] = ["data": data, "replicates": replicates, "seed": seed, "close_metres": closeMetres,
                                             "minutes": study.minutes, "outcomes": objects]
                if let scenario { report["scenario"] = scenario }
                print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
                return
            }
            print("| rule | source | close pairs notified (≤ \(closeMetres) m) | 95% CI | far pairs notified | 95% CI |")
            print("|---|---|---|---|---|---|")
            for o in outcomes {
                let tp = o.truePositiveRate, fp = o.falsePositiveRate
                print(String(format: "| %@ | %@ | %.0f%% (%d of %d) | %.0f–%.0f%% | %.0f%% (%d of %d) | %.0f–%.0f%% |", o.rule, o.source,
                             100 * tp.estimate, o.closeNotified, o.close, 100 * tp.interval.lower, 100 * tp.interval.upper,
                             100 * fp.estimate, o.farNotified, o.far, 100 * fp.interval.lower, 100 * fp.interval.upper))
            }
        }
    }

    struct Calibrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Simulated attenuation (typical attenuation of a scan window, dB) against distance, default model.",
            discussion: "Example: ensim radio calibrate --layer transport --json > attenuation.json; python3 plot-scripts/plot_attenuation.py attenuation.json"
        )

        // Optional with the default in the help: ArgumentParser shows a raw-value enum's default as its number.
        @Option(name: .customLong("layer"), help: "Contact layer (environment; default: household).")
        var chosenLayer: ContactLayer?
        var layer: ContactLayer { chosenLayer ?? .household }

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

/// The tram measurements `ensim radio tram` reads, and its output form.
struct TramData: ParsableArguments {
    static let defaultPath = "Scenarios/data/dublin-tram/attenuation-minutes.csv"

    @Option(help: "The measurements (handset pairs, distances, minutes per attenuation band).")
    var data = Self.defaultPath

    @Flag(help: "Print JSON.")
    var json = false

    func measurements() throws -> [TramStudy.Measurement] {
        do { return try TramStudy.load(csv: data) } catch { throw Console.failure("\(error)") }
    }
}
