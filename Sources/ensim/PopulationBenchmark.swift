import ArgumentParser
import EventEngine
import Foundation
import Simulation

/// `ensim bench population`: the whole daily cycle (contacts, ground truth, keys, RPIs,
/// encounters) for N people over D days, with the default model.
struct PopulationBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "population",
        abstract: "Time N phones × D days of the default population, contact and radio model.",
        discussion: "Example: ensim bench population --phones 100000 --days 28 --json"
    )

    @OptionGroup var output: BenchOutputOptions

    @Option(help: "People (each with a phone; the default share runs the app).")
    var phones = 100_000

    @Option(help: "Simulated days.")
    var days = 28

    @Option(help: "Worker threads (default: all cores).")
    var threads: Int?

    func validate() throws {
        guard phones >= 1, phones <= 100_000_000 else { throw ValidationError("--phones must be from 1 to 100000000") }
        guard (1...3650).contains(days) else { throw ValidationError("--days must be from 1 to 3650") }
    }

    func run() throws {
        let threadCount = threads ?? ProcessInfo.processInfo.activeProcessorCount
        let config = SimulationConfig(name: "bench", seed: 1, start: CivilCalendar.time(year: 2020, month: 10, day: 1), days: days,
                                      population: PopulationParameters(size: phones, appAdoption: 0.4),
                                      writeHourly: false, threads: threadCount)
        let started = Date()
        let simulation = try Simulation(config: config)
        let setup = Date().timeIntervalSince(started)
        let results = try simulation.run()
        let wall = Date().timeIntervalSince(started)
        let contacts = ContactLayer.allCases.reduce(Int64(0)) { sum, layer in
            sum + results.daily.column("contacts_" + layer.name).reduce(Int64(0)) { s, v in
                if case .integer(let n) = v { return s + n }
                return s
            }
        }
        try emitBenchResult([
            "benchmark": "population",
            "phones": phones,
            "days": days,
            "threads": threadCount,
            "setup_seconds": setup,
            "wall_seconds": wall,
            "phone_days_per_second": Double(phones * days) / wall,
            "contacts": contacts,
            "contacts_per_second": Double(contacts) / wall,
            "peak_rss_bytes": PeakMemory.residentBytes,
        ], options: output)
    }
}

/// Peak resident set size of this process, from getrusage (Linux reports kilobytes).
enum PeakMemory {
    static var residentBytes: Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}
