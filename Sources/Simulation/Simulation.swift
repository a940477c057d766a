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
    public let contacts: Int64
    public let scanInstances: Int64
}

/// One simulation run: builds the population, drives the event engine day by day and
/// gathers daily and hourly results.
///
/// Each UTC midnight every app phone rolls its key, and the day's contacts are drawn in
/// closed form (sharded over threads, merged in order): ground truth for every pair, and
/// for pairs of app phones the beacons each hears of the other through the radio model.
public final class Simulation {
    public let config: SimulationConfig
    private let engine: Engine<SimulationEvent>
    private let population: Population
    private let network: ContactNetwork
    private let availability: PhoneAvailability
    let fleet: PhoneFleet
    private let radios: PhoneRadios
    private let channel: ChannelModel
    private let placements: DiscreteDistribution
    /// Every phone's encounters of the last 14 days.
    public private(set) var encounters = EncounterStore(retentionDays: 14)
    /// Ground truth of the days within the retention window.
    public private(set) var groundTruth: [GroundTruthDay] = []

    private var day = DayCounters()
    private var hourlyScans: [Int64]
    private var encounterBytes = RunningStatistics()
    private var totalContacts: Int64 = 0
    private var totalScans: Int64 = 0
    /// Health system and backend; built at the start of `run()` (it may read the cases CSV).
    private(set) var pipeline: KeySubmissionPipeline!
    /// Downloads of the published packages by every client (built in `run()`).
    private(set) var distribution: DistributionModel!
    /// Exposure detection on the app phones after each day's downloads (built in `run()`).
    private(set) var detection: ExposureDetection!
    /// Every package published so far, in publication order.
    public private(set) var publishedPackages: [PublishedPackage] = []
    /// Close contacts of every day of the run: detection's ground truth outlives `groundTruth`'s window.
    private(set) var closeContactHistory: [GroundTruthDay] = []
    /// P6 phones beside GAEN on the same contacts (the `p6` block; nil when off).
    private(set) var p6: P6Run?
    /// Package bytes the app phones fetched (P6 compares its disclosure files with them).
    private var appPhonePackageBytes: Int64 = 0

    /// Days of contact ground truth kept: the 14-day key window plus a week for late detections.
    static let groundTruthRetentionDays = 21

    public init(config: SimulationConfig) {
        precondition(config.days >= 1 && config.populationSize >= 1, "validated by the scenario layer")
        self.config = config
        engine = Engine(start: config.start)
        population = Population(config.population, seed: config.seed)
        network = ContactNetwork(population: population, parameters: config.contacts, seed: config.seed)
        availability = PhoneAvailability(phones: population.appUsers, parameters: config.availability, seed: config.seed)
        fleet = PhoneFleet(seed: config.seed, owners: population.owners)
        radios = PhoneRadios(phoneOS: population.phoneOS, parameters: config.radio, seed: config.seed)
        channel = ChannelModel(config.radio)
        placements = try! DiscreteDistribution(weights: config.radio.placementShares)
        hourlyScans = Array(repeating: 0, count: config.days * 24)
        if config.p6.enabled {
            let regions = P6Regions(count: config.p6.regions, householdOf: network.householdOf, households: network.householdCount,
                                    owners: population.owners)
            p6 = P6Run(parameters: config.p6, distribution: config.distribution, seed: config.seed, start: config.start, days: config.days,
                       phoneIsIOS: population.phoneOS.map { $0 == .iOS }, regions: regions, threads: config.threads)
        }
    }

    /// Positive results delivered so far (ground truth for detection), in delivery order.
    public var positiveCases: [PositiveCase] { pipeline?.positiveCases ?? [] }

    /// Packages the backend published since the last call, in publication order.
    public func takeNewPackages() -> [PublishedPackage] { pipeline?.publisher.takeNewPackages() ?? [] }

    /// The public key that verifies every published export (PEM).
    public var exportVerificationKeyPEM: String { KeyPublisher.signingKey(seed: config.seed).verificationKey.pemRepresentation }

    public func run(progress: (RunProgress) -> Void = { _ in }) throws -> SimulationResults {
        try makePipeline()
        distribution = DistributionModel(parameters: config.distribution, flavor: config.backend.flavor.distributionFlavor,
                                         seed: config.seed, start: config.start,
                                         contactPhoneIsIOS: population.phoneOS.map { $0 == .iOS }, threads: config.threads)
        detection = makeExposureDetection(config.detection)
        let detection = self.detection!
        pipeline.exposureSummaries = { phone, time in detection.immuniSummaries(phone: phone, before: time) }
        let analytics = config.analytics.enabled && config.analytics.detections == .simulated
            ? SimulatedDetections(config: config, phoneOS: population.phoneOS) : nil
        distribution.recordsCheckSessions = analytics != nil
        var daily = ResultTable(columns: DayCounters.columns + ["index_cases"] + KeySubmissionPipeline.columns
                                + ["package_downloads", "phones_notified"])
        engine.scheduleRecurring(.midnight, first: config.start, every: SimDuration.day, priority: -1)
        engine.scheduleRecurring(.hour, first: config.start, every: SimDuration.hour, priority: 1)
        for dayIndex in 0..<config.days {
            let dayStart = config.start + Int64(dayIndex) * SimDuration.day
            let eventsBefore = engine.processedCount
            day = DayCounters()
            try engine.run(until: dayStart + SimDuration.day) { event in try handle(event) }
            // The day's packages reach the CDN; clients fetch what is new at their check times
            // and each phone runs detection on what it fetched (against encounters heard before).
            let fresh = takeNewPackages()
            publishedPackages += fresh
            distribution.publish(fresh)
            let downloads = distribution.advance(until: dayStart + SimDuration.day, unavailableContactPhones: availability.appCannotRun)
            try detection.process(dayIndex: dayIndex, downloads: downloads, packages: publishedPackages, encounters: encounters)
            analytics?.day(end: dayStart + SimDuration.day, checks: distribution.checkSessions, detection: detection,
                           availability: availability)
            appPhonePackageBytes += downloads.reduce(0) { $0 + Int64(publishedPackages[$1.package].bytes) }
            p6?.endDay(dayIndex: dayIndex, uploads: pipeline.uploads, unavailablePhones: availability.appCannotRun,
                       groundTruth: groundTruth)
            day.events = Int64(engine.processedCount - eventsBefore)
            daily.append(day.row(day: dayIndex, date: CivilCalendar.isoDateString(dayStart), appPhones: fleet.count)
                         + [.integer(day.indexCases)] + pipeline.dayValues(dayIndex)
                         + [.integer(Int64(downloads.count)), .integer(Int64(detection.notifications.count))])
            progress(RunProgress(day: dayIndex + 1, days: config.days, simulatedTime: engine.now, eventsProcessed: engine.processedCount,
                                 appPhones: fleet.count, contacts: totalContacts, scanInstances: totalScans))
        }
        return finalResults(daily: daily, analytics: analytics)
    }

    /// Summary sections, tables and files of every layer, once the last day has run.
    private func finalResults(daily: ResultTable, analytics: SimulatedDetections?) -> SimulationResults {
        var files = [NamedFile("backend/export-signing-public-key.pem", Array(exportVerificationKeyPEM.utf8))]
        files += pipeline.publisher.exports
        let delivered = distribution.results()
        let truth = detection.truth(groundTruth: closeContactHistory, cases: positiveCases)
        let detected = detection.finish(truth: truth, cases: positiveCases)
        var summary = summary(distribution: delivered.summary, detection: detected.summary)
        var p6Tables: [NamedTable] = []
        if let p6 {
            let report = p6.finish(truth: truth, gaen: detected.summary,
                                   distribution: delivered.summary, uploads: pipeline.uploads.count,
                                   gaenPayloadBytes: appPhonePackageBytes)
            summary.p6 = report.summary
            p6Tables = report.tables
        }
        let results = SimulationResults(summary: summary, daily: daily, hourly: config.writeHourly ? hourlyTable() : nil,
                                        tables: [NamedTable("packages.csv", pipeline.packageTable())] + delivered.tables + detected.tables + p6Tables,
                                        files: files)
        if let analytics { return analytics.attached(to: results) }
        return AnalyticsRun.attached(to: results, config: config, phoneOS: population.phoneOS)
    }

    private func makePipeline() throws {
        var series: CaseSeries? = nil
        if let path = config.health.casesCSV {
            series = try CaseSeries.load(path: path)
            try series!.checkCovers(start: config.start, days: config.days, path: path)
        }
        let engine = self.engine
        pipeline = KeySubmissionPipeline(health: config.health, backend: config.backend, seed: config.seed, start: config.start,
                                         days: config.days, phoneOf: population.phoneOf, appPhones: fleet.count, series: series) { step, i, t in
            _ = engine.schedule(.pipeline(step, i), at: t)
        }
    }

    private func handle(_ event: SimulationEvent) throws {
        switch event {
        case .midnight:
            startDay(midnight: engine.now)
            day.indexCases = Int64(pipeline.startDay(midnight: engine.now))
        case .hour:
            try pipeline.hour(engine.now)
        case .pipeline(let step, let index):
            try pipeline.handle(step, case: index, now: engine.now)
        }
    }

    private func startDay(midnight: SimTime) {
        let dayIndex = Int((midnight - config.start) / SimDuration.day)
        availability.roll(dayIndex: dayIndex)
        fleet.rollKeys(midnight: midnight, threads: config.threads)
        day.tekRotations = Int64(fleet.count)
        var radioDay = RadioDay(seed: config.seed, dayIndex: dayIndex, midnight: midnight, model: channel, placements: placements,
                                fleet: fleet, radios: radios, availability: availability)
        radioDay.p6 = p6?.startDay(dayIndex: dayIndex, midnight: midnight)
        let contacts = ContactPhase.run(network: network, population: population, dayIndex: dayIndex, midnight: midnight,
                                        threads: config.threads, seed: config.seed, radio: radioDay)
        p6?.store(dayIndex: dayIndex, midnight: midnight, batch: contacts.p6)
        day.contactsByLayer = contacts.byLayer
        day.appPairContacts = contacts.appPairContacts
        day.contactPairs = Int64(contacts.groundTruth.pairs.count)
        day.closeContacts = Int64(contacts.groundTruth.closeContacts)
        let counts = availability.counts
        day.phonesUnavailable = Int64(counts.unavailable)
        day.bluetoothOff = Int64(counts.bluetoothOff)
        day.uninstalled = Int64(counts.uninstalled)
        groundTruth.append(contacts.groundTruth)
        closeContactHistory.append(contacts.groundTruth.closeContactsOnly())
        if groundTruth.count > Self.groundTruthRetentionDays { groundTruth.removeFirst() }

        let stored = EncounterDay(dayIndex: dayIndex, phones: fleet.count, batch: contacts.encounters)
        encounters.add(stored)
        day.rpisHeard = Int64(stored.encounterCount)
        day.scanInstances = Int64(stored.scans.count)
        day.encounterBytes = Int64(stored.bytes)
        if fleet.count > 0 { encounterBytes.add(Double(stored.bytes) / Double(fleet.count)) }
        for h in 0..<24 { hourlyScans[dayIndex * 24 + h] = contacts.scanInstancesByHour[h] }
        totalContacts += contacts.byLayer.reduce(0, +)
        totalScans += day.scanInstances
    }

    private func summary(distribution: DistributionSummary, detection: DetectionSummary) -> RunSummary {
        RunSummary(
            scenario: config.name,
            start: CivilCalendar.isoDateString(config.start),
            days: config.days,
            population: config.populationSize,
            appPhones: fleet.count,
            appAdoption: IntervalSummary(Proportion.clopperPearson(successes: fleet.count, trials: config.populationSize)),
            contacts: totalContacts,
            contactsPerPersonDay: Double(totalContacts * 2) / Double(config.populationSize * config.days),
            scanInstances: totalScans,
            encounterBytesPerPhoneDay: IntervalSummary(encounterBytes.meanConfidenceInterval()),
            encounterStoreBytesAtEnd: encounters.bytes,
            health: pipeline.healthSummary(),
            backend: pipeline.backendSummary(),
            events: engine.processedCount,
            eventsByKind: NamedValues(SimulationEvent.kindNames.enumerated().map { ($0.element, engine.processedCount(of: $0.offset)) }),
            distribution: distribution,
            detection: detection)
    }

    private func hourlyTable() -> ResultTable {
        var table = ResultTable(columns: ["hour", "time_utc", "scan_instances"] + KeySubmissionPipeline.columns)
        for (h, n) in hourlyScans.enumerated() {
            let t = config.start + Int64(h) * SimDuration.hour
            table.append([.integer(Int64(h)), .text(CivilCalendar.isoDateTimeString(t)), .integer(n)] + pipeline.hourValues(h))
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
    var rpisHeard: Int64 = 0
    var scanInstances: Int64 = 0
    var encounterBytes: Int64 = 0
    var events: Int64 = 0
    var indexCases: Int64 = 0

    static let columns = ["day", "date"] + ContactLayer.allCases.map { "contacts_" + $0.name }
        + ["contact_pairs", "close_contacts", "app_pair_contacts", "app_phones", "phones_unavailable", "bluetooth_off",
           "uninstalled", "tek_rotations", "rpis_heard", "scan_instances", "encounter_bytes", "events"]

    func row(day: Int, date: String, appPhones: Int) -> [ResultTable.Cell] {
        [.integer(Int64(day)), .text(date)] + contactsByLayer.map { .integer($0) }
            + [.integer(contactPairs), .integer(closeContacts), .integer(appPairContacts), .integer(Int64(appPhones)),
               .integer(phonesUnavailable), .integer(bluetoothOff), .integer(uninstalled), .integer(tekRotations),
               .integer(rpisHeard), .integer(scanInstances), .integer(encounterBytes), .integer(events)]
    }
}
