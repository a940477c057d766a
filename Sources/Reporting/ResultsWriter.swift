import Foundation
import HealthBackend
import Scenario
import Simulation

/// Writes a finished run: summary.json, daily.csv, hourly.csv (when present), the run's further
/// tables and files, manifest.json.
public enum ResultsWriter {
    public static func write(_ results: SimulationResults, manifest: RunManifest, to folder: URL,
                             extraFiles: [(String, Data)] = []) throws {
        try write(results, manifest: manifest, to: RunFolder(finalURL: folder), extraFiles: extraFiles)
    }

    /// Writes into a folder claimed before the run (so a clash is found before the work is done).
    public static func write(_ results: SimulationResults, manifest: RunManifest, to run: RunFolder,
                             extraFiles: [(String, Data)] = []) throws {
        do {
            try run.write("summary.json", JSONReport.encode(results.summary))
            if let daily = results.dailyTable { try run.writeCSV("daily.csv", daily) }
            if let hourly = results.hourly { try run.writeCSV("hourly.csv", hourly) }
            for t in results.tables { try run.writeCSV(t.name, t.table) }
            for f in results.files { try run.write(f.path, Data(f.bytes)) }
            for (name, data) in extraFiles { try run.write(name, data) }
            try run.write("manifest.json", JSONReport.encode(manifest.report))
            try run.commit()
        } catch {
            run.discard()
            throw error
        }
    }
}
