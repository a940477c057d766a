import EventEngine
import Foundation
import HealthBackend
import Simulation
import SimulationCore

/// The health system and backend alone (no contacts or radio) at national scale: index cases
/// among N people, verification flows, dummy and national uploads, validation, and signed
/// export packages, over D days.
public struct BackendBenchmark {
    /// People in the contact population.
    public var people: Int
    /// App adoption share.
    public var adoption: Double
    /// Positive results per day in the population.
    public var casesPerDay: Double
    /// Uploads per day from the rest of the country.
    public var nationalUploadsPerDay: Double
    /// Dummy upload sessions per app phone per day.
    public var dummyPerPhoneDay: Double
    public var flavor: BackendFlavor
    public var days: Int

    public init(people: Int, adoption: Double, casesPerDay: Double, nationalUploadsPerDay: Double, dummyPerPhoneDay: Double,
                flavor: BackendFlavor, days: Int) {
        self.people = people
        self.adoption = adoption
        self.casesPerDay = casesPerDay
        self.nationalUploadsPerDay = nationalUploadsPerDay
        self.dummyPerPhoneDay = dummyPerPhoneDay
        self.flavor = flavor
        self.days = days
    }

    enum Event: EventKind {
        case midnight, hour
        case step(PipelineStep, Int32)
        var kindIndex: Int {
            switch self {
            case .midnight: return 0
            case .hour: return 1
            case .step: return 2
            }
        }
        static let kindNames = ["midnight", "hour", "step"]
    }

    public func run() throws -> BenchmarkReport {
        let start = CivilCalendar.time(year: 2020, month: 10, day: 1)
        var health = HealthParameters()
        health.casesPerDay = casesPerDay
        health.nationalUploadsPerDay = nationalUploadsPerDay
        var backend = BackendParameters()
        backend.flavor = flavor
        backend.dummyUploadsPerPhoneDay = dummyPerPhoneDay
        // An evenly spread `adoption` share of people runs the app: the backend only needs the phone index.
        var phoneOf = [Int32](repeating: -1, count: people), phones: Int32 = 0
        for p in 0..<people where Int(Double(p + 1) * adoption) > Int(Double(p) * adoption) { phoneOf[p] = phones; phones += 1 }

        let started = Date()
        let engine = Engine<Event>(start: start)
        let pipeline = KeySubmissionPipeline(health: health, backend: backend, seed: 1, start: start, days: days, phoneOf: phoneOf,
                                             appPhones: Int(phones), series: nil) { s, i, t in _ = engine.schedule(.step(s, i), at: t) }
        engine.scheduleRecurring(.midnight, first: start, every: SimDuration.day, priority: -1)
        engine.scheduleRecurring(.hour, first: start, every: SimDuration.hour, priority: 1)
        try engine.run(until: start + Int64(days) * SimDuration.day) { event in
            switch event {
            case .midnight: pipeline.startDay(midnight: engine.now)
            case .hour: try pipeline.hour(engine.now)
            case .step(let s, let i): try pipeline.handle(s, case: i, now: engine.now)
            }
        }
        let wall = Date().timeIntervalSince(started)
        let packages = pipeline.publisher.published
        let keys = packages.reduce(0) { $0 + $1.keys.count }
        return BenchmarkReport([
            "benchmark": "backend",
            "flavor": flavor.rawValue,
            "people": people,
            "app_phones": Int(phones),
            "days": days,
            "cases_per_day": casesPerDay,
            "national_uploads_per_day": nationalUploadsPerDay,
            "wall_seconds": wall,
            "events": engine.processedCount,
            "requests": pipeline.requests.reduce(0, +),
            "packages": packages.count,
            "package_keys": keys,
            "package_bytes": packages.reduce(0) { $0 + $1.bytes },
            "signed_keys_per_second": Double(keys) / wall,
            "peak_rss_bytes": PeakMemory.residentBytes,
        ])
    }
}
