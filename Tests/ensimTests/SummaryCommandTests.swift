import Foundation
import Testing

/// `ensim run` ends with what it found; `ensim summary` prints the same for a finished run.
@Suite struct SummaryCommandTests {
    @Test func runAndSummaryPrintTheSameFigures() throws {
        let dir = EnsimProcess.temporaryDirectory()
        let file = dir.appendingPathComponent("s.yaml")
        try Data("name: s\nseed: 4\ndays: 2\npopulation:\n  size: 2000\n  app_adoption: 0.6\nhealth:\n  cases_per_day: 8\n".utf8).write(to: file)
        let out = dir.appendingPathComponent("run")
        let run = try EnsimProcess.run(["run", file.path, "--out", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        for label in ["scenario", "people", "index cases", "notified phones", "precision", "recall", "CDN", "results"] {
            #expect(lines.contains { $0.hasPrefix(label + " ") }, "no \(label) line in \(run.stdout)")
        }
        #expect(lines.last == "results          \(out.path)")
        #expect(!lines.contains { $0.hasPrefix("schedule ") }, "a schedule line without app.detection.schedule")
        let phones = try appPhones(out)
        #expect(phones > 1000 && lines.contains("people           2,000 (\(phones / 1000),\(String(format: "%03d", phones % 1000)) app phones)"))
        let summary = try EnsimProcess.run(["summary", out.path])
        #expect(summary.status == 0 && summary.stdout == run.stdout, "\(summary.stdout) vs \(run.stdout)")

        let json = try EnsimProcess.run(["summary", out.path, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["population"] as? Int == 2000 && (object["detection"] as? [String: Any])?["notified"] != nil)

        let none = try EnsimProcess.run(["summary", dir.path])
        #expect(none.status == 1 && none.stderr == "error: \(dir.path): is not a finished run folder (no manifest.json)\n")
        try Data("{\"scenario\": 3}".utf8).write(to: out.appendingPathComponent("summary.json"))
        let corrupt = try EnsimProcess.run(["summary", out.path])
        #expect(corrupt.status == 1 && corrupt.stderr.hasPrefix("error: \(out.path)/summary.json: is not a run summary ensim can read"), "\(corrupt.stderr)")
    }

    /// An epidemic run adds what the epidemic did, what the app averted and the load it caused;
    /// its report page draws the epidemic.
    @Test func epidemicRunsSayWhatTheEpidemicDidAndReportIt() throws {
        let (out, run) = try run("""
            name: e
            seed: 3
            days: 8
            population: {size: 1500, app_adoption: 0.6}
            epidemic: {enabled: true, counterfactual: true, initial_infections: 30, hazard_per_minute: 0.02, manual_tracing: {enabled: true}}
            """)
        let lines = run.stdout.split(separator: "\n")
        for label in ["epidemic", "averted", "load"] {
            #expect(lines.contains { $0.hasPrefix(label + " ") }, "no \(label) line in \(run.stdout)")
        }
        #expect(lines.contains { $0.contains("infections without the app") && $0.contains("one seed") })
        let report = try EnsimProcess.run(["report", out.path])
        #expect(report.status == 0, "\(report.stderr)")
        let page = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(page.contains("The epidemic: infections by layer"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("epidemic.png").path))
    }

    /// A per-platform detection schedule gets a line with each platform's detections and held
    /// files, the numbers of summary.json's `detection.schedule`.
    @Test func aPerPlatformScheduleIsSummarisedPerPlatform() throws {
        let (out, run) = try run("""
            name: p
            seed: 5
            days: 4
            population: {size: 1500, app_adoption: 0.6}
            health: {cases_per_day: 6}
            app: {detection: {schedule: {ios: {min_interval_s: 86400}, android: {max_per_utc_day: 1}}}}
            """)
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("summary.json"))) as! [String: Any]
        let schedule = try #require((summary["detection"] as? [String: Any])?["schedule"] as? [String: Any])
        let ios = try #require(schedule["ios"] as? [String: Any]), android = try #require(schedule["android"] as? [String: Any])
        let line = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("schedule ") })
        let (all, i, a) = (schedule["detections"] as! Int, ios["detections"] as! Int, android["detections"] as! Int)
        #expect(all > 0 && i + a == all)
        #expect(line.contains("  \(grouped(all)) detections"), "\(line)")
        #expect(line.contains("iOS \(grouped(i)),") && line.contains("Android \(grouped(a)),"), "\(line)")
    }

    /// Runs a scenario given as YAML (hourly table off) into a fresh folder.
    func run(_ yaml: String) throws -> (out: URL, run: EnsimProcess.Output) {
        let dir = EnsimProcess.temporaryDirectory()
        let file = dir.appendingPathComponent("s.yaml"), out = dir.appendingPathComponent("run")
        try Data((yaml + "\noutputs: {hourly: false}\n").utf8).write(to: file)
        let run = try EnsimProcess.run(["run", file.path, "--out", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        return (out, run)
    }

    func grouped(_ n: Int) -> String { n < 1000 ? "\(n)" : grouped(n / 1000) + "," + String(format: "%03d", n % 1000) }

    func appPhones(_ run: URL) throws -> Int {
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: run.appendingPathComponent("summary.json"))) as! [String: Any]
        return summary["app_phones"] as! Int
    }
}
