import ArgumentParser
import EventEngine
import Foundation
import Reporting
import Simulation

/// `ensim bench distribution`: N clients downloading synthetic signed packages for D days.
struct DistributionBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "distribution",
        abstract: "Time N download clients × D days on the CDN model, with the CWA seed comparison.",
        discussion: "Example: ensim bench distribution --clients 30000000 --days 7 --tables Results/benchmarks/distribution-30M --json"
    )

    @OptionGroup var output: BenchOutputOptions

    @Option(help: "Download clients.")
    var clients = 1_000_000

    @Option(help: "Simulated days.")
    var days = 7

    @Option(help: "cwa or immuni.")
    var flavor = "cwa"

    @Option(help: "Positive cases per day in the synthetic packages.")
    var casesPerDay = 2_000.0

    @Option(help: "Keys per case.")
    var keysPerCase = 14

    @Option(help: "Worker threads (default: all cores).")
    var threads: Int?

    @Option(help: "Write summary.json and the distribution tables (CSV) into this new folder.")
    var tables: String?

    func validate() throws {
        guard (1...200_000_000).contains(clients) else { throw ValidationError("--clients must be from 1 to 200000000") }
        guard (1...60).contains(days) else { throw ValidationError("--days must be from 1 to 60") }
        guard let kind = DistributionFlavor(rawValue: flavor), kind != .p6 else { throw ValidationError("--flavor must be cwa or immuni") }
    }

    func run() throws {
        let threadCount = threads ?? ProcessInfo.processInfo.activeProcessorCount
        let start = CivilCalendar.time(year: 2020, month: 10, day: 1)
        let kind = DistributionFlavor(rawValue: flavor)!
        let packagesStarted = Date()
        let packages = try SyntheticPackages.make(flavor: kind, start: start, days: days, casesPerDay: casesPerDay,
                                                  keysPerCase: keysPerCase, seed: 1)
        let packageSeconds = Date().timeIntervalSince(packagesStarted)
        var parameters = DistributionParameters()
        parameters.clients = clients
        let started = Date()
        let model = DistributionModel(parameters: parameters, flavor: kind, seed: 1, start: start,
                                      contactPhoneIsIOS: [], threads: threadCount)
        let setup = Date().timeIntervalSince(started)
        model.publish(packages)
        for day in 1...days {
            _ = model.advance(until: start + Int64(day) * 86_400)
            FileHandle.standardError.write(Data("day \(day)/\(days): \(Int(Date().timeIntervalSince(started))) s\n".utf8))
        }
        let wall = Date().timeIntervalSince(started)
        let results = model.results()
        let s = results.summary
        let events = s.sessions + s.offlineChecks + s.deferredChecks
        let seedComparison = s.cwaSeedComparison?.markdown(peakRequestsPerSecond: s.peakRequestsPerSecond) ?? ""
        if let tables {
            let dir = URL(fileURLWithPath: tables)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
            try JSONReport.encode(s).write(to: dir.appendingPathComponent("summary.json"), options: .atomic)
            for t in results.tables {
                try CSVReport.encode(t.table).write(to: dir.appendingPathComponent(t.name), options: .atomic)
            }
            try Data((seedComparison + "\n").utf8).write(to: dir.appendingPathComponent("seed_comparison.md"), options: .atomic)
        }
        FileHandle.standardError.write(Data((seedComparison + "\n").utf8))
        try emitBenchResult([
            "benchmark": "distribution",
            "build": EngineBenchmark.buildConfiguration,
            "flavor": flavor,
            "clients": clients,
            "days": days,
            "threads": threadCount,
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
        ], options: output)
    }
}

private extension ReportValue {
    var jsonObject: Any {
        switch self {
        case .integer(let v): v
        case .number(let v): v.isFinite ? v : 0
        case .text(let v): v
        case .boolean(let v): v
        case .null: NSNull()
        case .array(let a): a.map(\.jsonObject)
        case .object(let o): Dictionary(o.map { ($0.0, $0.1.jsonObject) }, uniquingKeysWith: { a, _ in a })
        }
    }
}
