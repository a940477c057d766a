import Foundation

/// Runs the matplotlib scripts of plot-scripts/ on a run folder and collects the PNGs they draw,
/// for the report page.
public enum PlotScripts {
    /// Scripts the report uses, in page order, with a caption per PNG they write; a script whose
    /// input file the run lacks (the stage did not run) is skipped.
    static let inputs = ["plot_analytics.py": "monthly.csv", "plot_epidemic.py": "load_daily.csv"]
    static let figures: [(script: String, png: String, caption: String)] = [
        ("plot_epidemic.py", "epidemic.png",
         "The epidemic: infections by layer (dashed: without the app), the notification cascade, the load, the reproduction number"),
        ("plot_analytics.py", "analytics.png", "Immuni analytics: upload timing, estimates against the truth, the p_OWOE sweep"),
        ("plot_detection.py", "detection_daily.png", "Notifications per day, true and false"),
        ("plot_detection.py", "detection_precision_recall.png", "Precision and recall against the attenuation threshold"),
        ("plot_detection.py", "detection_latency.png", "Hours from the index case's test to the notification"),
        ("plot_run.py", "run_contacts.png", "Contacts"),
        ("plot_run.py", "run_app_bluetooth.png", "App phones and Bluetooth"),
        ("plot_run.py", "run_health_uploads.png", "Health system and uploads"),
        ("plot_run.py", "run_backend.png", "Backend and packages"),
        ("plot_run.py", "run_distribution.png", "Distribution: downloads per day and CDN load by hour"),
        ("plot_run.py", "run_detection.png", "Exposure detection"),
    ]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Draws the figures; a script that fails is one `Failure` naming it and its last error line.
    public static func draw(run: FinishedRun, scriptsFolder: String, python: String = "python3") throws(Failure) -> [RunReportPage.Figure] {
        let folder = URL(fileURLWithPath: scriptsFolder)
        var ran: Set<String> = []
        for script in figures.map(\.script) where !ran.contains(script) {
            ran.insert(script)
            if let input = inputs[script], !FileManager.default.fileExists(atPath: run.folder.appendingPathComponent(input).path) { continue }
            let path = folder.appendingPathComponent(script).path
            guard FileManager.default.fileExists(atPath: path) else {
                throw Failure(description: "\(path): no such plot script; pass --plot-scripts DIR (the repository's plot-scripts/)")
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [python, path, run.folder.path]
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            do { try process.run() } catch { throw Failure(description: "cannot start \(python) (\(error.localizedDescription)); run `bash .ci/setup`") }
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let last = stderr.split(separator: "\n").last.map(String.init) ?? "exit \(process.terminationStatus)"
                let hint = stderr.contains("No module named") ? "; install matplotlib with `bash .ci/setup`" : ""
                throw Failure(description: "\(script) failed: \(last)\(hint)")
            }
        }
        return figures.compactMap { f in
            FileManager.default.contents(atPath: run.folder.appendingPathComponent(f.png).path).map { RunReportPage.Figure(caption: f.caption, png: $0) }
        }
    }
}
