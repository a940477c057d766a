import Foundation
import Reporting
import SimulationCore

/// A benchmark's figures, printed as sorted JSON or as sorted `key: value` lines.
public struct BenchmarkReport {
    public var fields: [String: Any]

    public init(_ fields: [String: Any]) { self.fields = fields }

    /// Pretty-printed JSON with sorted keys (what `--json` prints and `--out` saves).
    public func json() throws -> Data {
        try JSONSerialization.data(withJSONObject: fields, options: [.prettyPrinted, .sortedKeys])
    }

    /// One `key: value` line per field, keys sorted.
    public var lines: [String] {
        fields.keys.sorted().map { key in "\(key): \(fields[key] ?? "")" }
    }
}

/// A benchmark that cannot run (a missing tool, output it cannot read); the description is for people.
public struct BenchmarkError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// Peak resident set size of this process (VmHWM; getrusage's figure if /proc is missing).
public enum PeakMemory {
    public static var residentBytes: Int {
        ProcessMemory.peakResidentBytes() ?? ProcessUsage.now.maxResidentBytes
    }
}

/// The machine the figures were measured on.
public enum Machine {
    /// The first three fields of /proc/loadavg (Linux), e.g. "2.10 2.25 1.90".
    public static var loadAverage: String? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The processor, e.g. "AMD EPYC, 2 logical CPUs" (/proc/cpuinfo's first model name): a
    /// ratio between two programs moves with it (issue 21's went from 2.06× to 1.09× with the
    /// same code when the workplace's machines changed), so every comparison says where it ran.
    public static var processor: String {
        let cpus = ProcessInfo.processInfo.activeProcessorCount
        let text = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = text.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }?.trimmingCharacters(in: .whitespaces)
        return "\(model ?? "unknown processor"), \(cpus) logical CPUs"
    }

    /// Whether these figures come from an optimized build.
    public static var buildConfiguration: String {
        #if DEBUG
        "debug (numbers not representative; use swift build -c release)"
        #else
        "release"
        #endif
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
