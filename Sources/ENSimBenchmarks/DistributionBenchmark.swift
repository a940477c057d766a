import Distribution
import EventEngine
import Foundation
import HealthBackend
import Reporting
import Simulation

/// N clients downloading synthetic signed packages for D days on the CDN model, with the CWA
/// seed comparison.
public struct DistributionBenchmark {
    public var clients: Int
    public var days: Int
    /// The app whose packages and download protocol are simulated.
    public var flavor: BackendFlavor
    /// Positive cases per day in the synthetic packages.
    public var casesPerDay: Double
    public var keysPerCase: Int
    public var threads: Int
    /// A new folder for summary.json, the distribution tables (CSV) and the seed comparison, if wanted.
    public var tablesFolder: URL?

    public init(clients: Int, days: Int, flavor: BackendFlavor, casesPerDay: Double, keysPerCase: Int, threads: Int,
                tablesFolder: URL?) {
        self.clients = clients
        self.days = days
        self.flavor = flavor
        self.casesPerDay = casesPerDay
        self.keysPerCase = keysPerCase
        self.threads = threads
        self.tablesFolder = tablesFolder
    }

    /// `log` receives progress lines and the seed comparison (for stderr; each is a line without its end).
    public func run(log: (String) -> Void) throws -> BenchmarkReport {
        let start = CivilCalendar.time(year: 2020, month: 10, day: 1)
        let kind = flavor.distributionFlavor
        let packagesStarted = Date()
        let packages = try SyntheticPackages.make(flavor: kind, start: start, days: days, casesPerDay: casesPerDay,
                                                  keysPerCase: keysPerCase, seed: 1)
        let packageSeconds = Date().timeIntervalSince(packagesStarted)
        var parameters = DistributionParameters()
        parameters.clients = clients
        let started = Date()
        let model = DistributionModel(parameters: parameters, flavor: kind, seed: 1, start: start,
                                      contactPhoneIsIOS: [], threads: threads)
        let setup = Date().timeIntervalSince(started)
        model.publish(packages)
        for day in 1...days {
            _ = model.advance(until: start + Int64(day) * 86_400)
            log("day \(day)/\(days): \(Int(Date().timeIntervalSince(started))) s")
        }
        let wall = Date().timeIntervalSince(started)
        let results = model.results()
        let s = results.summary
        let events = s.sessions + s.offlineChecks + s.deferredChecks
        let seedComparison = s.cwaSeedComparison?.markdown(peakRequestsPerSecond: s.peakRequestsPerSecond) ?? ""
        if let tablesFolder {
            let folder = try RunFolder(finalURL: tablesFolder)
            do {
                try folder.write("summary.json", JSONReport.encode(s))
                for t in results.tables { try folder.write(t.name, CSVReport.encode(t.table)) }
                try folder.write("seed_comparison.md", Data((seedComparison + "\n").utf8))
                try folder.commit()
            } catch {
                folder.discard()
                throw error
            }
        }
        log(seedComparison)
        return BenchmarkReport([
            "benchmark": "distribution",
            "build": Machine.buildConfiguration,
            "flavor": flavor.rawValue,
            "clients": clients,
            "days": days,
            "threads": threads,
            "cases_per_day": casesPerDay,
            "keys_per_case": keysPerCase,
            "packages": packages.count,
            "package_build_seconds": packageSeconds,
            "setup_seconds": setup,
            "wall_seconds": wall,
            "client_events": events,
            "client_events_per_second": Double(events) / wall,
            "state_bytes_per_client": DistributionModel.bytesPerClient,
            "peak_rss_bytes": PeakMemory.residentBytes,
            "peak_rss_bytes_per_client": Double(PeakMemory.residentBytes) / Double(clients),
            "queue": "none: each shard simulates its clients one after another (clients never interact)",
            "summary": try OrderedTreeEncoder().encode(s).jsonObject,
        ])
    }
}
