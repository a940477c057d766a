import Foundation
import Reporting

/// What a run costs per simulated day and how its memory grows with its length: `ensim run` of
/// the same small scenario for a short and a long span, each in its own process, with and
/// without the per-minute CDN table. Each run's peak memory is the one its manifest records
/// (VmHWM: wait4's ru_maxrss would count this process's memory too, shared until the exec). Issue 24's targets: peak memory of
/// the long run ≤ 1.2× the short one's, and the time a further day costs.
public struct LongRunBenchmark {
    public var ensim: String
    public var people: Int
    public var shortDays: Int
    public var longDays: Int
    public var threads: Int

    public init(ensim: String, people: Int, shortDays: Int, longDays: Int, threads: Int) {
        self.ensim = ensim
        self.people = people
        self.shortDays = shortDays
        self.longDays = longDays
        self.threads = threads
    }

    /// One child run: wall seconds and peak resident bytes.
    struct Measured {
        var seconds: Double
        var peakBytes: Int
    }

    /// Runs `ensim run` and reads the peak memory from the run's manifest.
    func measure(_ arguments: [String], out: String) throws -> Measured {
        let seconds = try Self.child(ensim, arguments + ["--out", out])
        let url = URL(fileURLWithPath: out).appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: url),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let peak = manifest["peak_memory_bytes"] as? Int else {
            throw BenchmarkError("\(url.path): no peak_memory_bytes (is \(ensim) an ensim that records it?)")
        }
        return Measured(seconds: seconds, peakBytes: peak)
    }

    public func run() throws -> BenchmarkReport {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ensim-bench-days-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var fields: [String: Any] = ["benchmark": "days", "people": people, "short_days": shortDays, "long_days": longDays,
                                     "threads": threads, "load_average": Machine.loadAverage ?? "",
                                     "build": Machine.buildConfiguration]
        for minutes in [true, false] {
            let label = minutes ? "minutes_on" : "minutes_off"
            let scenario = folder.appendingPathComponent("\(label).yaml")
            try Data("""
                name: bench-days
                seed: 3
                population:
                  size: \(people)
                outputs:
                  distribution_minutes: \(minutes)

                """.utf8).write(to: scenario)
            var measured: [Int: Measured] = [:]
            for days in [shortDays, longDays] {
                let out = folder.appendingPathComponent("\(label)-\(days)").path
                measured[days] = try measure(["run", scenario.path, "--days", "\(days)", "--quiet", "--threads", "\(threads)"], out: out)
            }
            let short = measured[shortDays]!, long = measured[longDays]!
            fields["\(label)_short_seconds"] = short.seconds
            fields["\(label)_long_seconds"] = long.seconds
            fields["\(label)_short_peak_rss_bytes"] = short.peakBytes
            fields["\(label)_long_peak_rss_bytes"] = long.peakBytes
            fields["\(label)_peak_rss_ratio"] = Double(long.peakBytes) / Double(short.peakBytes)
            fields["\(label)_ms_per_day"] = 1_000 * (long.seconds - short.seconds) / Double(longDays - shortDays)
        }
        return BenchmarkReport(fields)
    }

    /// Runs `executable arguments` with its standard output discarded; its wall seconds.
    static func child(_ executable: String, _ arguments: [String]) throws -> Double {
        try children(executable, [arguments])
    }

    /// Runs one child per argument list, all at the same time, standard output discarded; the wall
    /// seconds until the last one ended.
    static func children(_ executable: String, _ runs: [[String]]) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let started = Date()
        var pids: [(pid_t, [String])] = []
        for arguments in runs {
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { for p in argv { free(p) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
            guard spawned == 0 else { throw BenchmarkError("cannot start \(executable): \(String(cString: strerror(spawned)))") }
            pids.append((pid, arguments))
        }
        for (pid, arguments) in pids {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { throw BenchmarkError("waiting for \(executable): \(String(cString: strerror(errno)))") }
            }
            // Exited normally with status 0 (WIFEXITED && WEXITSTATUS == 0).
            guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
                throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) failed (wait status \(status))")
            }
        }
        return Date().timeIntervalSince(started)
    }
}
