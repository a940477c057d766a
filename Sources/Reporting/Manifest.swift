import Crypto
import Foundation
import Scenario
import Simulation

/// What produced a run: enough to reproduce it exactly.
public struct RunManifest {
    public var scenario: LoadedScenario
    public var resolved: ValueTree
    public var seed: UInt64
    public var threads: Int
    public var version: String
    public var gitCommit: String?
    public var startedAt: Date
    public var finishedAt: Date
    /// The run's peak resident memory (`ProcessMemory.peakResidentBytes()`), when known.
    public var peakMemoryBytes: Int?

    public init(scenario: LoadedScenario, resolved: ValueTree, seed: UInt64, threads: Int, version: String,
                gitCommit: String?, startedAt: Date, finishedAt: Date) {
        self.scenario = scenario
        self.resolved = resolved
        self.seed = seed
        self.threads = threads
        self.version = version
        self.gitCommit = gitCommit
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }

    public var scenarioSHA256: String {
        SHA256.hash(data: scenario.sourceBytes).map { String(format: "%02x", $0) }.joined()
    }

    public var report: ValueTree {
        let iso = ISO8601DateFormatter()
        return .section([
            ("ensim_version", .text(version)),
            ("git_commit", .text(gitCommit ?? "unknown")),
            ("scenario_file", .text(scenario.file)),
            ("scenario_sha256", .text(scenarioSHA256)),
            ("seed", .text(String(seed))),
            ("threads", .integer(Int64(threads))),
            ("started_at", .text(iso.string(from: startedAt))),
            ("finished_at", .text(iso.string(from: finishedAt))),
            ("wall_seconds", .number((finishedAt.timeIntervalSince(startedAt) * 1000).rounded() / 1000)),
        ] + (peakMemoryBytes.map { [("peak_memory_bytes", .integer(Int64($0)))] } ?? []) + [
            ("resolved_scenario", resolved),
        ])
    }
}

/// This process's peak resident memory so far: VmHWM of /proc/self/status (Linux). Unlike
/// getrusage's ru_maxrss, it belongs to the process's own memory, so a run started by a larger
/// process (`ensim bench days`, a sweep) does not report its parent's peak.
public enum ProcessMemory {
    public static func peakResidentBytes() -> Int? { statusBytes("VmHWM:") }

    /// This process's resident memory now: VmRSS of /proc/self/status.
    public static func residentBytes() -> Int? { statusBytes("VmRSS:") }

    /// A "Field:   123 kB" line of /proc/self/status, in bytes.
    private static func statusBytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
              let kB = Int(line.dropFirst(field.count).split(whereSeparator: \.isWhitespace).first ?? "") else { return nil }
        return kB * 1024
    }
}
