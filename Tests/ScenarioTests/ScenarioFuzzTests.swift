import Foundation
import GSL
@testable import Scenario
import Simulation
import Testing
import TestSupport

/// Hostile-but-fair mutations of the shipped scenarios (issue 17's fuzzing, kept in CI): validation
/// must never crash or hang and must report each problem on one line; and a sample of what it
/// accepts must run a day.
@Suite struct ScenarioFuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Mutations from a fixed GSL stream, so a failure names a reproducible case.
    struct Mutator {
        let stream: RandomStream
        init(seed: UInt64) { stream = RandomStream(seed: seed, stream: "scenario-fuzz") }
        func below(_ n: Int) -> Int { stream.uniformInt(n) }
        func pick<T>(_ xs: [T]) -> T { xs[below(xs.count)] }

        static let hostileValues = [
            "-1", "0", "1e308", "-1e308", ".nan", ".inf", "NaN", "\"\"", "~", "null", "!!str 3", "!!int x", "[1, 2]", "{a: 1}",
            "*nowhere", "&a 1", "99999999999999999999", "0x10", "1_000_000", "true", "\"\\u0000\"", "\"\\e[2J\"", "'", "\"",
            "\"\(String(repeating: "A", count: 5000))\"", "2020-02-30", "1969-12-31", "2106-02-07", "../../x", "\"a\\nb\"",
            "|\n  block\n  text", "? complex\n: key", "!!binary aGk=", "0.0000001", "-0", "1.", "+5",
        ]
        static let hostileKeys = ["nme", "population", "Days", "\"k\\ney\"", "<<", "? x", "- item", "\"\"", "seed seed"]

        func mutate(_ text: String) -> String {
            var lines = text.components(separatedBy: "\n")
            let i = below(max(lines.count, 1))
            switch below(11) {
            case 0: if !lines.isEmpty { lines.remove(at: i) }
            case 1: if !lines.isEmpty { lines.insert(lines[i], at: i) }
            case 2: if lines.count > 1 { lines.swapAt(i, below(lines.count)) }
            case 3, 4, 5:
                if let colon = lines[i].firstIndex(of: ":") {
                    lines[i] = String(lines[i][...colon]) + " " + pick(Self.hostileValues)
                }
            case 6: lines.insert(String(repeating: " ", count: 2 * below(3)) + pick(Self.hostileKeys) + ": " + pick(Self.hostileValues), at: i)
            case 7: lines[i] = String(repeating: " ", count: below(5)) + lines[i].drop(while: { $0 == " " })
            case 8:
                let bytes = Array(lines.joined(separator: "\n").utf8)
                return String(decoding: bytes.prefix(below(bytes.count + 1)), as: UTF8.self)
            case 9: lines[i] = lines[i].uppercased()
            default:
                var scalars = Array(lines[i].unicodeScalars)
                scalars.insert(pick(["\t", "\u{0}", "\u{1B}", "\u{FEFF}", "\r", "é", "\u{7F}", "#"]), at: below(scalars.count + 1))
                lines[i] = String(String.UnicodeScalarView(scalars))
            }
            return lines.joined(separator: "\n")
        }
    }

    static func shippedScenarios() throws -> [(name: String, text: String)] {
        var files: [(String, String)] = []
        for folder in ["Scenarios", "Scenarios/presets"] {
            let dir = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where name.hasSuffix(".yaml") {
                files.append(("\(folder)/\(name)", try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)))
            }
        }
        return files
    }

    static let scaleCaps: [(String, Double)] = [
        ("population.size", 300), ("distribution.clients", 2000), ("distribution.bytes_sample_clients", 2000),
        ("health.cases_per_day", 20), ("health.national_uploads_per_day", 50), ("health.cases_csv_scale", 0.001),
        ("analytics.attacks.ios_token_farm_devices", 5), ("analytics.attacks.ios_token_farm_requests_per_month", 10),
        ("analytics.attacks.ios_race_devices", 5), ("analytics.attacks.ios_replays_per_month", 10),
        ("analytics.attacks.android_replays_per_month", 10), ("analytics.attacks.android_reinstall_devices", 5),
        ("analytics.attacks.android_non_genuine_devices", 5),
    ]

    /// A scratch folder beside which relative paths (data/…) still resolve.
    static func scratch() throws -> URL {
        let dir = TestFolder.url("ensim-fuzz")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("data"), withDestinationURL: root.appendingPathComponent("Scenarios/data"))
        return dir
    }

    @Test func mutatedScenariosNeverCrashHangOrSpillOverLines() throws {
        let sources = try Self.shippedScenarios()
        #expect(sources.count >= 10)
        let dir = try Self.scratch()
        let mutator = Mutator(seed: 20_201_001)
        var accepted: [(String, LoadedScenario)] = []
        var refused = 0
        let cases = 3000
        for n in 0..<cases {
            let (name, source) = sources[n % sources.count]
            var text = source
            for _ in 0...mutator.below(3) { text = mutator.mutate(text) }
            let file = dir.appendingPathComponent("case-\(n).yaml")
            try Data(text.utf8).write(to: file)
            let started = Date()
            do {
                accepted.append(("\(name) case \(n)", try ScenarioLoader.load(file: file.path)))
            } catch {
                refused += 1
                for line in error.problems.map(\.description) {
                    #expect(!line.isEmpty && !line.contains(where: \.isNewline), "case \(n) from \(name): multi-line message \(line.debugDescription)")
                    #expect(line.count < 2000, "case \(n) from \(name): message of \(line.count) characters")
                    #expect(line.hasPrefix(file.path), "case \(n) from \(name): message without its file: \(line)")
                }
            }
            // A hang detector, not a performance target: one small file is milliseconds.
            #expect(Date().timeIntervalSince(started) < 5, "case \(n) from \(name) took \(Date().timeIntervalSince(started)) s")
            try? FileManager.default.removeItem(at: file)
        }
        #expect(refused > cases / 10 && accepted.count > cases / 10, "the mutations should both pass and fail validation")

        // Whatever validation accepts must run: a fixed sample, for a day on a small population.
        let sample = Mutator(seed: 7)
        for _ in 0..<6 {
            let (label, loaded) = accepted[sample.below(accepted.count)]
            var resolved = loaded.resolved.replacing(["days"], with: .integer(1))
            // Scale keys shrunk so a debug build runs a day in seconds; every other mutated key stays.
            for (path, cap) in Self.scaleCaps {
                guard let value = resolved.at(path) else { continue }
                let keys = path.split(separator: ".").map(String.init)
                switch value {
                case .integer(let v): resolved = resolved.replacing(keys, with: .integer(min(v, Int64(cap))))
                case .number(let v): resolved = resolved.replacing(keys, with: .number(min(v, cap)))
                default: break
                }
            }
            #expect(throws: Never.self, "\(label)") { _ = try Simulation(config: SimulationConfig(scenario: resolved, threads: 1)).run() }
        }
    }
}
