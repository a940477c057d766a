import Analytics
import Detection
import Distribution
import Epidemic
import EventEngine
import GAEN
import GSL
import HealthBackend
import P6Phones
import SimulationCore
import World

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

/// One simulation run: the day's pipeline of stages, driven by the event engine day by day.
///
/// At each UTC midnight (the engine's midnight event) every stage starts its day in order:
/// the world rolls keys and draws the day's contacts, the radio and P6 hearing them, and the
/// health system draws the day's index cases. The engine then runs the day's health and backend
/// events. After the day's last event every stage ends its day in order: packages reach the
/// CDN and clients fetch them, phones run exposure detection, analytics and P6 follow.
public final class Simulation {
    public let config: SimulationConfig
    private let engine: Engine<SimulationEvent>

    // The stages, in the day's order.
    package let world: WorldStage
    package let keySubmission: KeySubmissionStage
    package let distributionStage: DistributionStage
    package let detectionStage: DetectionStage
    package let analytics: AnalyticsStage?
    package let p6Stage: P6Stage?
    package let epidemic: EpidemicStage?
    private let stages: [any Stage]

    /// daily.csv: into the run folder as each day ends when the run streams its tables, else kept.
    private let daily: any TableStream
    /// Wall seconds spent so far in each phase of the day ("WorldStage.startDay", the engine's
    /// events, …): where a run's time goes (`ensim bench population` reports it). Not a result.
    public private(set) var phaseSeconds: [String: Double] = [:]
    /// CPU seconds of the whole process (every thread, user and system) in the same phases: with
    /// n threads, n × wall − CPU is the time a phase left cores idle (serial parts, waits).
    public private(set) var phaseCPUSeconds: [String: Double] = [:]

    /// Builds every stage; throws when an input file (`health.cases_csv`) cannot be used.
    /// - Parameter streams: where tables that grow with the run's length go as their rows become
    ///   final (`ensim run` writes them into the run folder); nil keeps them in the results.
    public init(config: SimulationConfig, streams: (any TableStreams)? = nil) throws {
        try config.check()
        self.config = config
        let engine = Engine<SimulationEvent>(start: config.start)
        self.engine = engine
        let run = config.context
        world = WorldStage(run, population: config.population, availability: config.availability, contacts: config.contacts,
                           radio: config.radio)
        world.retainsGroundTruth = config.retainsGroundTruth || config.p6.enabled
        keySubmission = try KeySubmissionStage(run, health: config.health, backend: config.backend, world: world) { event, t in
            _ = engine.schedule(.keySubmission(event), at: t)
        }
        distributionStage = DistributionStage(run, parameters: config.distribution, world: world, backend: keySubmission,
                                              streams: streams)
        detectionStage = DetectionStage(run, parameters: config.detection, world: world, backend: keySubmission,
                                        distribution: distributionStage)
        analytics = AnalyticsStage(run, parameters: config.analytics, world: world,
                                   distribution: distributionStage, detection: detectionStage)
        p6Stage = P6Stage(run, parameters: config.p6, downloads: config.distribution, world: world, backend: keySubmission,
                          distribution: distributionStage, detection: detectionStage)
        epidemic = config.epidemic.enabled
            ? EpidemicStage(run, parameters: config.epidemic, world: world, backend: keySubmission, detection: detectionStage,
                            flavor: config.backend.flavor) { event, t in _ = engine.schedule(.epidemic(event), at: t, priority: event.priority) } : nil
        var stages: [any Stage] = [world, keySubmission, distributionStage, detectionStage]
        if let analytics { stages.append(analytics) }
        if let p6Stage { stages.append(p6Stage) }
        if let epidemic { stages.append(epidemic) }
        let dailyColumns = ["day", "date"] + WorldDay.columns + ["events"] + KeySubmissionStage.dailyColumns
            + DistributionStage.dailyColumns + DetectionStage.dailyColumns + (epidemic == nil ? [] : EpidemicStage.dailyColumns)
            + (config.runsCounterfactual ? ["epi_counterfactual_new_infections"] : [])
            + (config.radio.collisionsEnabled ? ["adverts_delivered", "adverts_lost"] : [])
            + (config.radio.collisionsEnabled && p6Stage != nil ? ["p6_adverts_delivered", "p6_adverts_lost"] : [])
        daily = streams?.open("daily.csv", columns: dailyColumns) ?? MemoryTableStream(columns: dailyColumns)
        self.stages = stages
    }

    public func run(progress: (RunProgress) -> Void = { _ in }) throws -> SimulationResults {
        // The counterfactual runs first so that its infections stand beside each day's.
        let without = config.runsCounterfactual ? try counterfactual() : nil
        engine.scheduleRecurring(.midnight, first: config.start, every: SimDuration.day, priority: -1)
        engine.scheduleRecurring(.keySubmission(.hour), first: config.start, every: SimDuration.hour, priority: 1)
        for dayIndex in 0..<config.days {
            let day = SimulatedDay(index: dayIndex, start: config.start)
            let eventsBefore = engine.processedCount
            let clock = ContinuousClock()
            let dayStarted = clock.now
            var inStages = Duration.zero
            try engine.run(until: day.end) { event in
                switch event {
                case .midnight:
                    for stage in stages { inStages += try time("\(type(of: stage)).startDay") { try stage.startDay(day) } }
                case .keySubmission(let e): try keySubmission.handle(e, now: engine.now)
                case .epidemic(let e): epidemic?.handle(e, now: engine.now)
                }
            }
            phaseSeconds["engine events", default: 0] += Self.seconds(clock.now - dayStarted - inStages)
            for stage in stages { _ = try time("\(type(of: stage)).endDay") { try stage.endDay(day) } }
            daily.append([.integer(Int64(dayIndex)), .text(CivilCalendar.isoDateString(day.midnight))] + world.today.values
                         + [.integer(Int64(engine.processedCount - eventsBefore))] + keySubmission.dailyValues(day)
                         + distributionStage.dailyValues + detectionStage.dailyValues + (epidemic?.dailyValues(day) ?? [])
                         + (without.map { [.integer(Int64($0.byDay[dayIndex]))] } ?? []) + collisionValues())
            progress(RunProgress(day: dayIndex + 1, days: config.days, simulatedTime: engine.now, eventsProcessed: engine.processedCount,
                                 appPhones: world.fleet.count, contacts: world.totalContacts, scanInstances: world.totalScans))
        }
        var results = results()
        if let without, let infections = results.summary.epidemic?.infections {
            let other = without.total
            results.summary.epidemic?.counterfactualInfections = other
            results.summary.epidemic?.infectionsAverted = other - infections
            if other > infections, let load = results.summary.epidemic?.load {
                results.summary.epidemic?.quarantineDaysPerInfectionAverted = Double(load.quarantinedPersonDays) / Double(other - infections)
            }
        }
        return results
    }

    /// daily.csv's collision columns (with `radio.collisions`): adverts the channel delivered and
    /// those collisions took, GAEN's then P6's.
    private func collisionValues() -> [ResultTable.Cell] {
        guard config.radio.collisionsEnabled else { return [] }
        let tallies = [world.todayCollisions] + (p6Stage.map { [$0.run.todayCollisions] } ?? [])
        return tallies.flatMap { t in [.integer(t.totals.delivered), .integer(t.totals.lost)] }
    }

    /// Runs `work`, adding its wall time and the process's CPU time to `phase`.
    private func time(_ phase: String, _ work: () throws -> Void) rethrows -> Duration {
        let cpu = ProcessUsage.now.cpuSeconds
        let elapsed = try ContinuousClock().measure(work)
        phaseSeconds[phase, default: 0] += Self.seconds(elapsed)
        phaseCPUSeconds[phase, default: 0] += ProcessUsage.now.cpuSeconds - cpu
        return elapsed
    }

    private static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// The same seed with nobody acting on notifications (the app does nothing), run to its end.
    private func counterfactual() throws -> (total: Int, byDay: [Int]) {
        var other = config
        other.epidemic.counterfactual = false
        other.epidemic.actsOnNotifications = false
        other.writeHourly = false
        let simulation = try Simulation(config: other)
        let results = try simulation.run()
        return (results.summary.epidemic?.infections ?? 0, simulation.epidemic?.newInfectionsByDay ?? [])
    }

    /// Every stage's result, once the last day has run.
    private func results() -> SimulationResults {
        let w = world.result()
        let backend = keySubmission.result()
        let delivered = distributionStage.result()
        let detected = detectionStage.result()
        var summary = RunSummary(
            scenario: config.name, start: CivilCalendar.isoDateString(config.start), days: config.days, population: w.population,
            appPhones: w.appPhones, appAdoption: IntervalSummary(w.appAdoption), contacts: w.contacts,
            contactsPerPersonDay: Double(w.contacts * 2) / Double(config.populationSize * config.days),
            scanInstances: w.scanInstances, encounterBytesPerPhoneDay: IntervalSummary(w.encounterBytesPerPhoneDay),
            encounterStoreBytesAtEnd: w.encounterStoreBytesAtEnd, health: backend.health, backend: backend.backend,
            events: engine.processedCount,
            eventsByKind: NamedValues(SimulationEvent.kindNames.enumerated()
                .filter { epidemic != nil || $0.offset < SimulationEvent.kindNames.count - EpidemicEvent.kindNames.count }
                .map { ($0.element, engine.processedCount(of: $0.offset)) }),
            distribution: delivered.summary, detection: detected.summary)
        var tables = [NamedTable("packages.csv", backend.packages)] + delivered.tables + detected.tables
        if let collisions = w.collisions { summary.radio = RadioSummary(collisions: collisions) }
        if let p6 = p6Stage?.result() {
            summary.p6 = p6.summary
            tables += p6.tables
        }
        if let epidemic {
            summary.epidemic = epidemic.result()
            tables += [NamedTable("load_daily.csv", epidemic.loadTable()), NamedTable("reproduction.csv", epidemic.reproductionTable())]
        }
        if let analytics = analytics?.result() {
            summary.analytics = analytics.summary
            tables += analytics.tables
        }
        return SimulationResults(summary: summary, daily: (daily as? MemoryTableStream)?.table, hourly: config.writeHourly ? hourlyTable() : nil, tables: tables,
                                 files: [NamedFile("backend/export-signing-public-key.pem", Array(exportVerificationKeyPEM.utf8))]
                                     + backend.exports)
    }

    /// hourly.csv, made row by row as it is written from the stages' per-hour counters.
    private func hourlyTable() -> ResultTable {
        let scans = world.scanInstancesByHour, backendHours = keySubmission.pipeline.hourly, start = config.start
        return .computed(columns: ["hour", "time_utc", "scan_instances"] + KeySubmissionPipeline.columns, count: scans.count) { h in
            [.integer(Int64(h)), .text(CivilCalendar.isoDateTimeString(start + Int64(h) * SimDuration.hour)), .integer(scans[h])]
                + backendHours[h].values.map { .integer($0) }
        }
    }
}
