import ArgumentParser
import EventEngine
import Foundation
import Simulation

/// `ensim bench backend`: health system and backend alone (no contacts or radio) at national
/// scale: index cases among N people, verification flows, dummy and national uploads,
/// validation, and signed export packages, over D days.
struct BackendBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backend",
        abstract: "Time the health system and backend alone: cases, verification, uploads and signed packages.",
        discussion: "Example: ensim bench backend --people 1000000 --cases-per-day 200 --national-uploads-per-day 1200 --json"
    )

    @OptionGroup var output: BenchOutputOptions

    @Option(help: "People in the contact population.") var people = 1_000_000
    @Option(help: "App adoption share.") var adoption = 0.4
    @Option(help: "Positive results per day in the population.") var casesPerDay = 200.0
    @Option(help: "Uploads per day from the rest of the country.") var nationalUploadsPerDay = 1200.0
    @Option(help: "Dummy upload sessions per app phone per day.") var dummyPerPhoneDay = 0.1
    @Option(help: "cwa or immuni.") var flavor = "cwa"
    @Option(help: "Simulated days.") var days = 28

    func validate() throws {
        guard people >= 1, (1...3650).contains(days) else { throw ValidationError("--people ≥ 1 and --days 1…3650") }
        guard BackendFlavor(rawValue: flavor) != nil else { throw ValidationError("--flavor must be cwa or immuni") }
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

    func run() throws {
        let start = CivilCalendar.time(year: 2020, month: 10, day: 1)
        var health = HealthParameters()
        health.casesPerDay = casesPerDay
        health.nationalUploadsPerDay = nationalUploadsPerDay
        var backend = BackendParameters()
        backend.flavor = BackendFlavor(rawValue: flavor)!
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
        try emitBenchResult([
            "benchmark": "backend",
            "flavor": flavor,
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
        ], options: output)
    }
}
