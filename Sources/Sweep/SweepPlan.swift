import Crypto
import Foundation
import Scenario

/// A sweep's runs as an executor receives them: each run's scenario file (every key explicit) and the
/// SHA-256 of its bytes, which identifies the run (a run folder whose manifest records the same hash
/// is that run, complete).
public struct SweepPlan: Sendable {
    public let sweep: SweepFile
    public let jobs: [SweepJob]

    public init(_ sweep: SweepFile) {
        self.sweep = sweep
        jobs = sweep.runs.map { SweepJob(run: $0) }
    }

    /// SHA-256 of the sweep file's bytes.
    public var fileSHA256: String { Self.hex(SHA256.hash(data: sweep.sourceBytes)) }

    /// SHA-256 over every run's id and scenario hash: two sweep files with the same runs share it, so a
    /// sweep folder is resumed only by a sweep that would write the same runs.
    public var runsSHA256: String {
        Self.hex(SHA256.hash(data: Data(jobs.map { "\($0.id) \($0.scenarioSHA256)\n" }.joined().utf8)))
    }

    /// `ensim sweep --plan`: the dimensions, then one line per run.
    public var text: String {
        var out = "sweep \(sweep.name): \(sweep.pointCount) grid point(s) × \(sweep.replicates) replicate(s) = \(jobs.count) runs of \(sweep.base.file)\n"
        for (key, value) in sweep.fixed { out += "  set   \(key) = \(Self.shown(value))\n" }
        for dimension in sweep.dimensions {
            let label = dimension.keys.count == 1 ? "grid " : "zip  "
            out += "  \(label) \(dimension.keys.joined(separator: " + ")): "
                + dimension.levels.map { $0.map(Self.shown).joined(separator: "/") }.joined(separator: ", ") + "\n"
        }
        out += "  metrics: " + sweep.metrics.map(\.name).joined(separator: ", ") + "\n"
        let keys = sweep.variedKeys
        for job in jobs {
            let values = zip(keys, job.run.values).map { "\($0)=\(Self.shown($1))" }
            out += ([job.id, "seed=\(job.run.seed)"] + values).joined(separator: "  ") + "\n"
        }
        return out
    }

    static func shown(_ value: ValueTree) -> String {
        switch value {
        case .text(let t): return t
        case .integer(let v): return String(v)
        case .number(let v): return "\(v)"
        case .boolean(let v): return v ? "true" : "false"
        default: return "?"
        }
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}

/// One run to execute: its id (the folder name under runs/) and its scenario file.
public struct SweepJob: Sendable {
    public let run: SweepRun
    public let scenario: Data
    public let scenarioSHA256: String
    public var id: String { run.id }

    init(run: SweepRun) {
        self.run = run
        scenario = Data(run.scenarioYAML.utf8)
        scenarioSHA256 = SweepPlan.hex(SHA256.hash(data: scenario))
    }
}
