import EventEngine
import Foundation
import Simulation
import SimulationCore
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

    /// The benchmark's run: N people, 40% on the app, D days from 1 October 2020, no hourly table.
    static func config(phones: Int, days: Int, threads: Int) -> SimulationConfig {
        SimulationConfig(name: "bench", seed: 1, start: CivilCalendar.time(year: 2020, month: 10, day: 1), days: days,
                         population: PopulationParameters(size: phones, appAdoption: 0.4), writeHourly: false, threads: threads)
    }

    public func run() throws -> BenchmarkReport {
        let config = Self.config(phones: phones, days: days, threads: threads)
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
        // Each store per phone-day it keeps: encounters per app phone over GAEN's 14 days, close
        // contacts per person over the days kept in memory or on disk, the rest per phone.
        let stores = simulation.storeBytes
        let memoryDays = CloseContactHistory.defaultMemoryDays
        let appPhones = max(1, simulation.appPhoneOwners.count)
        func perPhoneDay(_ store: String, _ bytes: Int) -> Double {
            switch store {
            case "encounters", "encounters_on_disk": Double(bytes) / Double(appPhones * min(days, 14))
            case "close_contacts_in_memory": Double(bytes) / Double(phones * min(days, memoryDays))
            case "close_contacts_on_disk": Double(bytes) / Double(phones * max(1, days - memoryDays))
            case "keys": Double(bytes) / Double(appPhones)
            default: Double(bytes) / Double(phones)
            }
        }
        let peak = PeakMemory.residentBytes
        let usage = ProcessUsage.now
        return BenchmarkReport([
            "store_bytes": Dictionary(uniqueKeysWithValues: stores.map { ($0.store, $0.bytes) }),
            "store_bytes_per_unit": Dictionary(uniqueKeysWithValues: stores.map { ($0.store, perPhoneDay($0.store, $0.bytes)) }),
            "store_units": "encounters (in memory, on disk): per app phone-day (14 days kept); close contacts: per person-day; keys: per app phone; others: per person",
            "peak_rss_bytes_per_million_phones": Double(peak) * 1e6 / Double(phones),
            "benchmark": "population",
            "machine": Machine.processor,
            "phones": phones,
            "days": days,
            "threads": threads,
            "setup_seconds": setup,
            "wall_seconds": wall,
            "phone_days_per_second": Double(phones * days) / wall,
            "contacts": contacts,
            "contacts_per_second": Double(contacts) / wall,
            "peak_rss_bytes": peak,
            "phase_seconds": simulation.phaseSeconds,
            "phase_cpu_seconds": simulation.phaseCPUSeconds,
            // Cores left idle in each phase (threads × wall − CPU): serial parts and waits at barriers.
            "phase_idle_core_seconds": simulation.phaseCPUSeconds.reduce(into: [String: Double]()) { idle, phase in
                idle[phase.key] = Double(threads) * (simulation.phaseSeconds[phase.key] ?? 0) - phase.value
            },
            // The whole process, set-up included.
            "cpu_user_seconds": usage.userSeconds,
            "cpu_system_seconds": usage.systemSeconds,
            "minor_page_faults": usage.minorPageFaults,
        ])
    }
}
