import EventEngine
import Foundation
import Simulation
import World

/// The whole daily cycle (contacts, ground truth, keys, RPIs, encounters) for N people over
/// D days, with the default model.
public struct PopulationBenchmark {
    /// People (each with a phone; the default share runs the app).
    public var phones: Int
    public var days: Int
    public var threads: Int

    public init(phones: Int, days: Int, threads: Int) {
        self.phones = phones
        self.days = days
        self.threads = threads
    }

    public func run() throws -> BenchmarkReport {
        let config = SimulationConfig(name: "bench", seed: 1, start: CivilCalendar.time(year: 2020, month: 10, day: 1), days: days,
                                      population: PopulationParameters(size: phones, appAdoption: 0.4),
                                      writeHourly: false, threads: threads)
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
        return BenchmarkReport([
            "benchmark": "population",
            "phones": phones,
            "days": days,
            "threads": threads,
            "setup_seconds": setup,
            "wall_seconds": wall,
            "phone_days_per_second": Double(phones * days) / wall,
            "contacts": contacts,
            "contacts_per_second": Double(contacts) / wall,
            "peak_rss_bytes": PeakMemory.residentBytes,
        ])
    }
}
