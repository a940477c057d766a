import Foundation
import Reporting
import Scenario

/// A sweep's results folder: `manifest.json`, `scenarios/<run-id>.yaml` (the file each run is given),
/// `runs/<run-id>/` (ordinary run folders), `sweep.csv`, `sweep_summary.csv` and, when runs failed,
/// `failures.csv`. One sweep at a time writes it (an exclusive `flock` on `.sweep.lock`).
public final class SweepFolder: @unchecked Sendable {
    public let url: URL
    public var runsURL: URL { url.appendingPathComponent("runs") }
    public var scenariosURL: URL { url.appendingPathComponent("scenarios") }
    public var manifestURL: URL { url.appendingPathComponent("manifest.json") }
    /// Whether the folder held this sweep already (complete runs are skipped).
    public let resumed: Bool
    private var lockDescriptor: Int32 = -1

    public struct FolderError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens `out`, or by default the newest folder under `Results/sweeps/<name>/` that holds the same
    /// runs (so re-running the same command resumes), else a new `Results/sweeps/<name>/<UTC time>/`.
    /// `fresh` always starts a new default folder.
    public init(out: String?, plan: SweepPlan, fresh: Bool = false, now: Date = Date()) throws {
        let fm = FileManager.default
        var chosen: URL
        var resumed = false
        if let out {
            chosen = URL(fileURLWithPath: out).standardizedFileURL
            if fm.fileExists(atPath: chosen.path) {
                if let held = Self.runsSHA256(in: chosen) {
                    guard held == plan.runsSHA256 else {
                        throw FolderError(description: "\(chosen.path): holds another sweep (its runs differ from this file's); choose another --out folder")
                    }
                    resumed = true
                } else if !((try? fm.contentsOfDirectory(atPath: chosen.path)) ?? []).isEmpty {
                    throw FolderError(description: "\(chosen.path): exists and is not a sweep folder (no manifest.json); choose another --out folder")
                }
            }
        } else {
            let parent = URL(fileURLWithPath: "Results/sweeps").appendingPathComponent(plan.sweep.name).standardizedFileURL
            let previous = ((try? fm.contentsOfDirectory(atPath: parent.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted(by: >)
            if !fresh, let match = previous.first(where: { Self.runsSHA256(in: parent.appendingPathComponent($0)) == plan.runsSHA256 }) {
                chosen = parent.appendingPathComponent(match)
                resumed = true
            } else {
                let stamp = Self.stamp(now)
                chosen = parent.appendingPathComponent(stamp)
                var n = 2
                while fm.fileExists(atPath: chosen.path) {
                    chosen = parent.appendingPathComponent("\(stamp)-\(n)")
                    n += 1
                }
            }
        }
        url = chosen
        self.resumed = resumed
        do {
            try fm.createDirectory(at: runsURL, withIntermediateDirectories: true)
            try fm.createDirectory(at: scenariosURL, withIntermediateDirectories: true)
        } catch {
            throw FolderError(description: "\(chosen.path): cannot create the sweep folder (\(error.localizedDescription))")
        }
        let lockPath = url.appendingPathComponent(".sweep.lock").path
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw FolderError(description: "\(chosen.path): another ensim sweep is writing this folder; wait for it or choose another --out folder")
        }
        lockDescriptor = descriptor
    }

    deinit {
        if lockDescriptor >= 0 { close(lockDescriptor) }
    }

    public func runURL(_ job: SweepJob) -> URL { runsURL.appendingPathComponent(job.id) }
    public func scenarioURL(_ job: SweepJob) -> URL { scenariosURL.appendingPathComponent("\(job.id).yaml") }

    /// Whether `runs/<id>/` is a finished run of exactly this job's scenario.
    public func isComplete(_ job: SweepJob) -> Bool {
        guard let run = try? FinishedRun(folder: runURL(job).path),
              let data = FileManager.default.contents(atPath: run.manifestPath),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return manifest["scenario_sha256"] as? String == job.scenarioSHA256
    }

    /// Removes what stands in the way of a run: a folder of another scenario, or a damaged one.
    public func clear(_ job: SweepJob) throws {
        let path = runURL(job).path
        guard FileManager.default.fileExists(atPath: path) else { return }
        do { try FileManager.default.removeItem(atPath: path) } catch {
            throw FolderError(description: "\(path): cannot remove this incomplete run (\(error.localizedDescription))")
        }
    }

    public func writeScenario(_ job: SweepJob) throws {
        try AtomicFile.write(job.scenario, to: scenarioURL(job))
    }

    public func write(_ name: String, _ data: Data) throws {
        try AtomicFile.write(data, to: url.appendingPathComponent(name))
    }

    public func remove(_ name: String) {
        try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
    }

    /// The manifest: the sweep file (text and hash), and every expanded run with its seed, values and scenario hash.
    public static func manifest(_ plan: SweepPlan, version: String) -> ValueTree {
        let sweep = plan.sweep
        let keys = sweep.variedKeys
        return .section([
            ("ensim_version", .text(version)),
            ("name", .text(sweep.name)),
            ("sweep_file", .text(sweep.file)),
            ("sweep_sha256", .text(plan.fileSHA256)),
            ("sweep", .text(String(decoding: sweep.sourceBytes, as: UTF8.self))),
            ("base_scenario", .text(sweep.base.file)),
            ("replicates", .integer(Int64(sweep.replicates))),
            ("grid_points", .integer(Int64(sweep.pointCount))),
            ("set", .section(sweep.fixed.map { ($0.key, $0.value) })),
            ("varied", .array(keys.map { .text($0) })),
            ("metrics", .array(sweep.metrics.map { .text($0.name) })),
            ("runs_sha256", .text(plan.runsSHA256)),
            ("runs", .array(plan.jobs.map { job in
                .section([
                    ("id", .text(job.id)),
                    ("point", .integer(Int64(job.run.point))),
                    ("replicate", .integer(Int64(job.run.replicate))),
                    ("seed", .text(String(job.run.seed))),
                    ("values", .section(Array(zip(keys, job.run.values)))),
                    ("scenario_sha256", .text(job.scenarioSHA256)),
                ])
            })),
        ])
    }

    static func runsSHA256(in folder: URL) -> String? {
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent("manifest.json").path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["runs_sha256"] as? String
    }

    static func stamp(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return f.string(from: date)
    }
}
