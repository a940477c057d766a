import EventEngine
import GAEN
import GSL

/// What a long run reports after each simulated day.
public struct RunProgress: Sendable {
    public let day: Int
    public let days: Int
    public let simulatedTime: SimTime
    public let eventsProcessed: Int
    public let appPhones: Int
}

/// One simulation run: builds the population, drives the event engine day by day and
/// gathers daily and hourly results.
public final class Simulation {
    public let config: SimulationConfig
    private let engine: Engine<SimulationEvent>
    private let population: Population
    private let network: ContactNetwork
    private let availability: PhoneAvailability
    private let fleet: PhoneFleet
    private let deriver = try! BatchRPIDeriver(capacity: 1)
    /// Ground truth of the days within the retention window.
    public private(set) var groundTruth: [GroundTruthDay] = []
    private let rotationStreams: [RandomStream]
    private var pendingRotation: [EventHandle?]

    // Counters of the current day and the whole run.
    private var day = DayCounters()
    private var hourlyRotations: [Int64]
    private var rotationInterval = RunningStatistics()
    private var broadcastToday = Set<RollingProximityIdentifier>()
    private var totalRotations: Int64 = 0
    private var totalCollisions: Int64 = 0

    public init(config: SimulationConfig) {
        precondition(config.days >= 1 && config.populationSize >= 1, "validated by the scenario layer")
        self.config = config
        engine = Engine(start: config.start)
        population = Population(config.population, seed: config.seed)
        network = ContactNetwork(population: population, parameters: config.contacts, seed: config.seed)
        availability = PhoneAvailability(phones: population.appUsers, parameters: config.availability, seed: config.seed)
        fleet = PhoneFleet(seed: config.seed, owners: population.owners)
        rotationStreams = (0..<fleet.count).map {
            RandomStream(seed: config.seed, stream: "rpi-rotation", index: UInt64($0), generator: .taus2)
        }
        pendingRotation = Array(repeating: nil, count: fleet.count)
        hourlyRotations = Array(repeating: 0, count: config.days * 24)
    }

    /// Days of contact ground truth kept: the 14-day key window plus a week for late detections.
    static let groundTruthRetentionDays = 21

    public func run(progress: (RunProgress) -> Void = { _ in }) throws -> SimulationResults {
        var daily = ResultTable(columns: DayCounters.columns)
        engine.scheduleRecurring(.midnight, first: config.start, every: SimDuration.day, priority: -1)
        var failure: (any Error)?
        for dayIndex in 0..<config.days {
            let dayStart = config.start + Int64(dayIndex) * SimDuration.day
            let eventsBefore = engine.processedCount
            day = DayCounters()
            broadcastToday.removeAll(keepingCapacity: true)
            engine.run(until: dayStart + SimDuration.day) { event in
                do {
                    try handle(event)
                } catch {
                    failure = error
                    engine.stop()
                }
            }
            if let failure { throw failure }
            day.events = Int64(engine.processedCount - eventsBefore)
            day.distinctRPIsBroadcast = Int64(broadcastToday.count)
            totalCollisions += day.rpiRotations - day.distinctRPIsBroadcast
            daily.append(day.row(day: dayIndex, date: CivilCalendar.isoDateString(dayStart), appPhones: fleet.count))
            progress(RunProgress(day: dayIndex + 1, days: config.days, simulatedTime: engine.now,
                                 eventsProcessed: engine.processedCount, appPhones: fleet.count))
        }
        return SimulationResults(summary: summary(), daily: daily, hourly: config.writeHourly ? hourlyTable() : nil)
    }

    private func handle(_ event: SimulationEvent) throws {
        switch event {
        case .midnight:
            let dayIndex = Int((engine.now - config.start) / SimDuration.day)
            availability.roll(dayIndex: dayIndex)
            let contacts = ContactPhase.run(network: network, population: population, dayIndex: dayIndex, midnight: engine.now,
                                            threads: config.threads, seed: config.seed)
            day.contactsByLayer = contacts.byLayer
            day.appPairContacts = contacts.appPairContacts
            day.contactPairs = Int64(contacts.groundTruth.pairs.count)
            day.closeContacts = Int64(contacts.groundTruth.closeContacts)
            let counts = availability.counts
            day.phonesUnavailable = Int64(counts.unavailable)
            day.bluetoothOff = Int64(counts.bluetoothOff)
            day.uninstalled = Int64(counts.uninstalled)
            groundTruth.append(contacts.groundTruth)
            if groundTruth.count > Self.groundTruthRetentionDays { groundTruth.removeFirst() }
            fleet.rollKeys(midnight: engine.now, threads: config.threads)
            day.tekRotations += Int64(fleet.count)
            // A new key means a new RPI at once: every phone rotates now.
            for phone in 0..<fleet.count {
                if let pending = pendingRotation[phone] { engine.cancel(pending) }
                rotate(phone: phone)
            }
        case .rpiRotation(let phone):
            rotate(phone: Int(phone))
        }
    }

    /// Broadcasts the RPI of the current interval and schedules the next address change
    /// after a uniform draw in [min, max] minutes.
    private func rotate(phone: Int) {
        let now = engine.now
        let interval = ENIntervalNumber(unixTime: now)
        broadcastToday.insert(fleet.advertisement(phone: phone, interval: interval, txPower: 8, deriver: deriver).identifier)
        day.rpisDerived += 1
        day.rpiRotations += 1
        totalRotations += 1
        hourlyRotations[Int((now - config.start) / SimDuration.hour)] += 1
        let lo = Double(config.rpiRotationMinMinutes * 60), hi = Double(config.rpiRotationMaxMinutes * 60)
        // Whole seconds uniform on [min, max] minutes.
        let delay = Int64(rotationStreams[phone].uniform(lo, hi + 1).rounded(.down))
        rotationInterval.add(Double(delay) / 60)
        pendingRotation[phone] = engine.schedule(.rpiRotation(phone: Int32(phone)), after: delay)
    }

    private func summary() -> ReportValue {
        let adoption = Proportion.clopperPearson(successes: fleet.count, trials: config.populationSize)
        let interval = rotationInterval.meanConfidenceInterval()
        return .object([
            ("scenario", .text(config.name)),
            ("start", .text(CivilCalendar.isoDateString(config.start))),
            ("days", .integer(Int64(config.days))),
            ("population", .integer(Int64(config.populationSize))),
            ("app_phones", .integer(Int64(fleet.count))),
            ("app_adoption", Self.interval(adoption)),
            ("tek_rotations", .integer(Int64(engine.processedCount(of: 0)) * Int64(fleet.count))),
            ("rpi_rotations", .integer(totalRotations)),
            ("rpi_rotations_per_phone_day", .number(fleet.count == 0 ? 0 : Double(totalRotations) / Double(fleet.count * config.days))),
            ("rpi_rotation_interval_minutes", Self.interval(interval)),
            ("rpi_collisions", .integer(totalCollisions)),
            ("events", .integer(Int64(engine.processedCount))),
            ("events_by_kind", .object(SimulationEvent.kindNames.enumerated().map {
                ($0.element, .integer(Int64(engine.processedCount(of: $0.offset))))
            })),
        ])
    }

    static func interval(_ ci: ConfidenceInterval) -> ReportValue {
        .object([("estimate", .number(ci.estimate)), ("ci_lower", .number(ci.lower)), ("ci_upper", .number(ci.upper)),
                 ("confidence", .number(ci.confidence))])
    }

    private func hourlyTable() -> ResultTable {
        var table = ResultTable(columns: ["hour", "time_utc", "rpi_rotations"])
        for (h, n) in hourlyRotations.enumerated() {
            let t = config.start + Int64(h) * SimDuration.hour
            table.append([.integer(Int64(h)), .text(CivilCalendar.isoDateTimeString(t)), .integer(n)])
        }
        return table
    }
}

/// Per-day counters, one daily.csv row.
struct DayCounters {
    var contactsByLayer = [Int64](repeating: 0, count: ContactLayer.allCases.count)
    var contactPairs: Int64 = 0
    var closeContacts: Int64 = 0
    var appPairContacts: Int64 = 0
    var phonesUnavailable: Int64 = 0
    var bluetoothOff: Int64 = 0
    var uninstalled: Int64 = 0
    var tekRotations: Int64 = 0
    var rpisDerived: Int64 = 0
    var rpiRotations: Int64 = 0
    var distinctRPIsBroadcast: Int64 = 0
    var events: Int64 = 0

    static let columns = ["day", "date"] + ContactLayer.allCases.map { "contacts_" + $0.name }
        + ["contact_pairs", "close_contacts", "app_pair_contacts", "app_phones", "phones_unavailable", "bluetooth_off",
           "uninstalled", "tek_rotations", "rpis_derived", "rpi_rotations",
                          "distinct_rpis_broadcast", "events"]

    func row(day: Int, date: String, appPhones: Int) -> [ReportValue] {
        [.integer(Int64(day)), .text(date)] + contactsByLayer.map { .integer($0) }
            + [.integer(contactPairs), .integer(closeContacts), .integer(appPairContacts), .integer(Int64(appPhones)),
               .integer(phonesUnavailable), .integer(bluetoothOff), .integer(uninstalled), .integer(tekRotations), .integer(rpisDerived),
         .integer(rpiRotations), .integer(distinctRPIsBroadcast), .integer(events)]
    }
}
