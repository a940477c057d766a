import Foundation
import GSL

/// A validated sweep file: a base scenario, the keys it varies (a full factorial `grid`, keys varied
/// together in `zip`), keys set for every run (`set`), replicate seeds and the metrics to collect.
/// `runs` is the expansion: one resolved scenario per grid point and replicate.
public struct SweepFile: Sendable {
    public let file: String
    public let sourceBytes: Data
    public let name: String
    public let base: LoadedScenario
    public let replicates: Int
    /// Keys set to one value in every run, in file order.
    public let fixed: [(key: String, value: ValueTree)]
    /// The varied dimensions: each grid key alone, then the zip keys together; the first varies slowest.
    public let dimensions: [SweepDimension]
    public let metrics: [SweepMetric]
    public let runs: [SweepRun]

    /// Every varied key, in column order (grid keys, then zip keys).
    public var variedKeys: [String] { dimensions.flatMap(\.keys) }
    public var pointCount: Int { dimensions.reduce(1) { $0 * $1.levels.count } }
}

/// One axis of the sweep: its keys and, per level, one value for each key.
public struct SweepDimension: Sendable {
    public let keys: [String]
    public let levels: [[ValueTree]]
}

/// One run of a sweep: a grid point, a replicate and its fully resolved scenario.
public struct SweepRun: Sendable {
    /// `p<point>-r<replicate>`, zero-padded so that folder order is run order.
    public let id: String
    /// 0-based grid point.
    public let point: Int
    /// 1-based replicate.
    public let replicate: Int
    public let seed: UInt64
    /// The varied keys' values at this point, in `SweepFile.variedKeys` order.
    public let values: [ValueTree]
    public let resolved: ValueTree
    /// The scenario file the run is given: `resolved` with every key explicit (its hash identifies the run).
    public var scenarioYAML: String { resolved.scenarioYAML }
}

/// A number read from each run's summary.json: a dotted path (`detection.recall`; an interval gives its
/// estimate), or the ratio of two (`detection.notified / health.index_cases`).
public struct SweepMetric: Sendable, Equatable {
    public let name: String
    public let numerator: [String]
    public let denominator: [String]?
    /// Where the sweep file lists it (for messages).
    public internal(set) var line: Int?
    public internal(set) var column: Int?

    public static func == (a: SweepMetric, b: SweepMetric) -> Bool { a.name == b.name }

    public static let defaults = ["detection.precision", "detection.recall", "detection.notified"]

    /// nil when `text` is not one or two dotted paths.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard (1...2).contains(parts.count) else { return nil }
        let paths = parts.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
        guard paths.allSatisfy({ $0.allSatisfy { !$0.isEmpty } }) else { return nil }
        numerator = paths[0]
        denominator = paths.count == 2 ? paths[1] : nil
        name = parts.joined(separator: "/")
    }
}

/// Replicate seeds: replicate 1 keeps the base scenario's seed (a one-replicate sweep reruns the base),
/// replicate r > 1 takes a seed derived from (base seed, r) through GSL's stream-key digest. Every grid
/// point uses the same seeds, so points differ by their settings, not by their luck (common random numbers).
public enum SweepSeeds {
    public static func seed(base: UInt64, replicate: Int) -> UInt64 {
        precondition(replicate >= 1, "replicates count from 1")
        if replicate == 1 { return base }
        // Scenario seeds are 0…Int64.max (YAML integers are signed).
        return StreamKey(seed: base, stream: "sweep.replicate", index: UInt64(replicate)).digest & UInt64(Int64.max)
    }
}
