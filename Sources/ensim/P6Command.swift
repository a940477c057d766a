import ArgumentParser
import ENSimBenchmarks
import Foundation
import GSL
import P6Phones
import Reporting
import Simulation

/// `ensim p6 …`: the P6 proximity protocol on its own.
struct P6Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "p6",
        abstract: "P6 proximity protocol tools.",
        subcommands: [Collisions.self]
    )

    struct Collisions: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "False-match study: disclosed P6 epochs against receiver epochs of unrelated slice codes.",
            discussion: """
            Every match found is false. Reports single-slice matches and k-in-5 windows
            beside their analytic expectation, for the seed's rule (code only) and ENSim's
            (code and proximity UUID). Examples:
              ensim p6 collisions   the seed's setup: 150,000 receivers x 75,000 codes
              ensim p6 collisions --sizes 1000000x100000 --threads 2
              ensim p6 collisions --sizes 150000x75000,1000000x100000 --json \\
                --out Results/benchmarks/p6-collisions.json
            """
        )

        @Option(help: "Comma-separated RECEIVERSxDISCLOSURES runs (receiver epochs x disclosed epochs; default: \(CollisionSizes.seed.text)).",
                transform: { try CollisionSizes($0) })
        var sizes = CollisionSizes.seed

        @Option(parsing: .unconditional, help: "Slice code width in bits (32 for iBeacon major+minor; smaller to make collisions common).")
        var codeBits = 32

        @Option(parsing: .unconditional, help: "Sliding window in slices.")
        var window = 5

        @Option(parsing: .unconditional, help: "Matched slices within the window for a full match.")
        var threshold = 3

        @Option(parsing: .unconditional, help: "Seed.")
        var seed: UInt64 = 20_200_322

        @OptionGroup var threads: ThreadOptions

        @Flag(help: "Print JSON.")
        var json = false

        @Option(help: "Also write the JSON to this file.")
        var out: String?

        func validate() throws {
            guard (1...32).contains(codeBits) else { throw ValidationError("--code-bits must be 1...32, got \(codeBits)") }
            guard window >= 1, threshold >= 1, threshold <= window else {
                throw ValidationError("--window and --threshold must be at least 1 and threshold <= window")
            }
        }

        func run() throws {
            var runs: [[String: Any]] = []
            for size in sizes.runs {
                var p = P6CollisionParameters()
                p.receivers = size.receivers
                p.disclosures = size.disclosures
                p.codeBits = codeBits
                p.window = window
                p.threshold = threshold
                p.seed = seed
                p.threads = threads.count
                var timings = P6CollisionTimings()
                let start = Date()
                let r = P6CollisionStudy.run(p, timings: &timings)
                let seconds = Date().timeIntervalSince(start)
                let object = Self.report(r, timings: timings, seconds: seconds)
                runs.append(object)
                if !json { Self.printTable(r, seconds: seconds, timings: timings) }
            }
            let document: [String: Any] = [
                "command": "ensim p6 collisions --sizes \(sizes.text) --code-bits \(codeBits) --window \(window) --threshold \(threshold) --seed \(seed) --threads \(threads.count)",
                "ensim_version": ENSimVersion.string, "threads": threads.count, "cores": ProcessInfo.processInfo.activeProcessorCount,
                "runs": runs,
            ]
            let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
            if json { print(String(decoding: data, as: UTF8.self)) }
            if let out { try AtomicFile.write(data, to: URL(fileURLWithPath: out)) }
        }

        static func counts(_ c: P6CollisionCounts, expected: [Double], window: Int) -> [String: Any] {
            var o: [String: Any] = ["full_matches": c.fullMatches, "receivers_with_full_match": c.receiversWithFullMatch]
            for k in c.windows.indices {
                let name = k == 0 ? "single_slice_matches" : "windows_\(k + 1)_in_\(window)"
                o[name] = ["observed": c.windows[k], "expected": expected[k]]
            }
            return o
        }

        static func report(_ r: P6CollisionResult, timings: P6CollisionTimings, seconds: Double) -> [String: Any] {
            let p = r.parameters
            let perMillion = Proportion.clopperPearson(successes: r.codeAndUUID.receiversWithFullMatch, trials: p.receivers)
            return [
                "receiver_epochs": p.receivers, "disclosed_epochs": p.disclosures, "slices_per_epoch": p.slices,
                "slice_seconds": p.sliceSeconds, "code_bits": p.codeBits, "window": p.window, "threshold": p.threshold,
                "codes_per_slice_shares": p.codesPerSliceShares, "mean_codes_per_slice": p.meanCodesPerSlice,
                "received_codes": r.receivedCodes, "seed": p.seed,
                "code_only": counts(r.codeOnly, expected: r.expectedCodeOnly, window: p.window),
                "code_and_uuid": counts(r.codeAndUUID, expected: r.expectedCodeAndUUID, window: p.window),
                "false_full_matches_per_million_receiver_days": Double(r.codeAndUUID.fullMatches) / Double(p.receivers) * 1e6,
                "receivers_with_false_full_match_per_million": [
                    "estimate": perMillion.estimate * 1e6, "ci_lower": perMillion.lower * 1e6, "ci_upper": perMillion.upper * 1e6,
                    "confidence": perMillion.confidence,
                ],
                "expected_false_full_matches_per_million_receiver_days": r.expectedCodeAndUUID[p.threshold - 1] / Double(p.receivers) * 1e6,
                "seconds": seconds, "seconds_disclosed_codes": timings.disclosedCodesSeconds, "seconds_index": timings.indexSeconds,
                "seconds_receivers": timings.receiversSeconds, "seconds_analysis": timings.analysisSeconds,
                "index_bytes": timings.indexBytes, "peak_resident_bytes_so_far": PeakMemory.residentBytes,
            ]
        }

        static func printTable(_ r: P6CollisionResult, seconds: Double, timings: P6CollisionTimings) {
            let p = r.parameters
            print("P6 collisions: \(p.receivers) receiver epochs x \(p.disclosures) disclosed epochs, \(p.slices) slices of \(p.sliceSeconds) s, "
                + "\(p.codeBits)-bit codes, \(String(format: "%.2f", Double(r.receivedCodes) / Double(p.receivers * p.slices))) codes per slice")
            var header = "| rule | single-slice (obs / exp) |"
            for k in 2..<(r.codeOnly.windows.count + 1) { header += " \(k)-in-\(p.window) (obs / exp) |" }
            print(header + " full matches |")
            print("|---|" + String(repeating: "---|", count: r.codeOnly.windows.count + 1))
            for (name, c, e) in [("code only (seed)", r.codeOnly, r.expectedCodeOnly), ("code + UUID (ENSim)", r.codeAndUUID, r.expectedCodeAndUUID)] {
                var line = "| \(name) |"
                for k in c.windows.indices { line += " \(c.windows[k]) / \(format(e[k])) |" }
                print(line + " \(c.fullMatches) |")
            }
            let ci = Proportion.clopperPearson(successes: r.codeAndUUID.receiversWithFullMatch, trials: p.receivers)
            print(String(format: "receivers with a false full match per million: %.3g (95%% CI %.3g–%.3g)", ci.estimate * 1e6, ci.lower * 1e6, ci.upper * 1e6))
            print(String(format: "time %.1f s (disclosed codes %.1f, index %.1f, receivers %.1f, analysis %.1f), index %.0f MB, peak RSS %.0f MB",
                         seconds, timings.disclosedCodesSeconds, timings.indexSeconds, timings.receiversSeconds, timings.analysisSeconds,
                         Double(timings.indexBytes) / 1e6, Double(PeakMemory.residentBytes) / 1e6))
        }

        static func format(_ x: Double) -> String { x >= 0.01 ? String(format: "%.1f", x) : String(format: "%.2g", x) }
    }
}

/// `--sizes 150000x75000,1000000x100000`: the runs, and the text as given (echoed in the JSON).
struct CollisionSizes {
    static let seed = CollisionSizes(text: "150000x75000", runs: [(150_000, 75_000)])

    let text: String
    let runs: [(receivers: Int, disclosures: Int)]


    private init(text: String, runs: [(receivers: Int, disclosures: Int)]) {
        self.text = text
        self.runs = runs
    }

    init(_ text: String) throws {
        self.text = text
        runs = try text.split(separator: ",").map { item in
            let parts = item.lowercased().split(separator: "x")
            guard parts.count == 2, let r = Int(parts[0]), let d = Int(parts[1]), r >= 1, d >= 1, d < 500_000_000 else {
                throw ValidationError("'\(item)' is not RECEIVERSxDISCLOSURES with positive integers (disclosures < 500000000)")
            }
            return (r, d)
        }
    }
}
