import Detection
import EventEngine
import GSL
import HealthBackend
import SimulationCore
import World

/// The epidemic: transmission over every day's contacts (a `ContactObserver` of the world),
/// natural history, tests of symptomatic and notified people whose positive results become the
/// health system's index cases, and quarantine and isolation, which remove non-household
/// contacts (the world's `ContactGate`). Every draw comes from a stream keyed by person, day or
/// contact, so results do not depend on threads or event order.
package final class EpidemicStage: Stage, ContactObserver, ContactGate {
    private let parameters: EpidemicParameters
    private let seed: UInt64
    private let start: SimTime
    private let population: Population
    private let detection: DetectionStage
    private let backend: KeySubmissionStage
    private let tracing: ManualTracing?
    private let network: ContactNetwork
    /// The backend's funnel at the end of the previous day (for the day's hotline and operator work).
    private var funnelBefore = (teleTAN: 0, verified: 0)
    /// Immuni's OTP is authorised by a health operator on the phone; CWA's TAN needs nobody.
    private let operatorValidatesOTP: Bool
    private let history: NaturalHistory
    let state: EpidemicState
    private var recorders: [TransmissionRecorder] = []
    /// Infected people in infection order.
    private(set) var infected: [Int32] = []
    private var notifiedHandled: Set<Int32> = []
    private let schedule: (EpidemicEvent, SimTime) -> Void
    /// People infectious now (kept by the infectious and recovery events), and symptomatic now
    /// (onset and recovery events of those whose onset comes before their recovery).
    private var infectiousNow = 0
    private var symptomaticNow = 0
    /// Whether a person's current or last quarantine window was opened by an app notification
    /// (else by a tracer's call), for the daily split of the people quarantined.
    private var quarantinedByApp: [Bool]
    /// People confined at some point and possibly still (pruned each day).
    private var confinedPeople: [Int32] = []
    private var listedConfined: [Bool]
    /// Positive results by the UTC day number they arrive on.
    private var dueCases: [Int64: [PositiveCase]] = [:]
    private var positive: Set<Int32> = []
    private(set) var ledger: EpidemicLedger

    package init(_ run: RunContext, parameters: EpidemicParameters, world: WorldStage, backend: KeySubmissionStage,
                 detection: DetectionStage, flavor: BackendFlavor, schedule: @escaping (EpidemicEvent, SimTime) -> Void) {
        self.schedule = schedule
        operatorValidatesOTP = flavor == .immuni
        self.parameters = parameters
        seed = run.seed
        start = run.start
        population = world.population
        self.detection = detection
        self.backend = backend
        network = world.network
        tracing = parameters.manualTracing.enabled
            ? ManualTracing(parameters.manualTracing, population: world.population.size,
                            expiryDays: parameters.quarantineDays, seed: run.seed) : nil
        history = NaturalHistory(parameters)
        state = EpidemicState(people: world.population.size)
        symptomOnset = Array(repeating: .max, count: world.population.size)
        listedConfined = Array(repeating: false, count: world.population.size)
        quarantinedByApp = Array(repeating: false, count: world.population.size)
        ledger = EpidemicLedger(days: run.days, people: world.population.size)
        world.contactObservers.append(self)
        world.contactGate = self
        backend.pipeline.takeCases { [unowned self] midnight in self.cases(arrivingOn: midnight) }
    }

    // MARK: contact phase

    package func beginShards(_ count: Int) {
        recorders = (0..<count).map { _ in TransmissionRecorder(state: state, history: history, seed: seed, namer: tracing?.namer()) }
    }

    package func recorder(shard index: Int) -> any ContactRecorder { recorders[index] }

    /// Applies the day's infecting contacts: a person infected by several is infected by the earliest.
    package func endShards() {
        let found = recorders.flatMap(\.found).sorted { ($0.target, $0.at, $0.source) < ($1.target, $1.at, $1.source) }
        tracing?.keep(day: Int(state.dayIndex), recorders.flatMap { $0.namer?.named ?? [] })
        recorders = []
        for c in found where state.infectedAt[Int(c.target)] == .max {
            infect(c.target, at: c.at, layer: c.layer, source: c.source)
        }
    }

    package func removes(_ contact: ContactView) -> Bool {
        contact.layer != .household && (state.confinedNow[Int(contact.a)] || state.confinedNow[Int(contact.b)])
    }

    private func infect(_ person: Int32, at t: SimTime, layer: ContactLayer?, source: Int32? = nil) {
        let rng = RandomStream(seed: seed, stream: "epidemic.history", index: UInt64(person), generator: .taus2)
        let course = history.course(infectedAt: t, age: population.age[Int(person)], rng: rng)
        state.infectedAt[Int(person)] = t
        state.infectiousFrom[Int(person)] = course.infectiousFrom
        state.recoveredAt[Int(person)] = course.recoveredAt
        state.relativeInfectiousness[Int(person)] = Float(course.relativeInfectiousness)
        infected.append(person)
        symptomOnset[Int(person)] = course.symptomOnset ?? .max
        schedule(.infectious(person), course.infectiousFrom)
        schedule(.recovery(person), course.recoveredAt)
        if let onset = course.symptomOnset { schedule(.symptomOnset(person), onset) }
        if let source { state.infector[Int(person)] = source }
        ledger.infection(dayIndex: dayIndex(t), layer: layer, person: person, recoveredAt: course.recoveredAt,
                         sourceDayIndex: source.map { dayIndex(state.infectedAt[Int($0)]) })
    }

    /// Each person's symptom onset; .max: none (not infected, or asymptomatic).
    private(set) var symptomOnset: [SimTime]

    private func dayIndex(_ t: SimTime) -> Int { Int((t - start) / SimDuration.day) }

    // MARK: the day

    /// Seeds the first midnight's infections and each day's imports (stream "epidemic.seeding", day).
    package func startDay(_ day: SimulatedDay) {
        state.dayIndex = Int32(day.index)
        let rng = RandomStream(seed: seed, stream: "epidemic.seeding", index: UInt64(day.index))
        var count = rng.poisson(mean: parameters.importsPerDay) + (day.index == 0 ? parameters.initialInfections : 0)
        count = min(count, population.size - infected.count)
        var tries = 0
        while count > 0 && tries < 100 * population.size {
            tries += 1
            let person = Int32(rng.uniformInt(population.size))
            guard state.infectedAt[Int(person)] == .max else { continue }
            let at = day.midnight + Int64(rng.uniformInt(Int(SimDuration.day)))
            infect(person, at: at, layer: nil)
            count -= 1
        }
    }

    /// The epidemic's own events, at their times within the day.
    package func handle(_ event: EpidemicEvent, now: SimTime) {
        switch event {
        case .infectious: infectiousNow += 1
        case .recovery(let person):
            infectiousNow -= 1
            if symptomOnset[Int(person)] < state.recoveredAt[Int(person)] { symptomaticNow -= 1 }
        case .symptomOnset(let person):
            // A test with some probability (stream "epidemic.symptom_test", person).
            ledger.days[dayIndex(now)].symptomOnsets += 1
            if symptomOnset[Int(person)] < state.recoveredAt[Int(person)] { symptomaticNow += 1 }
            let rng = RandomStream(seed: seed, stream: "epidemic.symptom_test", index: UInt64(person), generator: .taus2)
            if rng.bernoulli(p: parameters.symptomaticTestProbability) {
                schedule(.test(person, .symptoms), now + Self.seconds(parameters.onsetToTestDays))
            }
        case .test(let person, let reason): test(person, at: now, reason: reason)
        case .confinementStart(let person), .confinementEnd(let person):
            // Read from the window, so an end made stale by an extension changes nothing.
            state.confinedNow[Int(person)] = state.isConfined(person, onDay: Int32(dayIndex(now)))
        }
    }

    package func endDay(_ day: SimulatedDay) {
        let d = day.index
        reactToNotifications(day)
        if let tracing { trace(tracing, day) }
        state.dayIndex = Int32(d)
        var quarantined = 0, isolated = 0
        confinedPeople.removeAll { person in
            let done = state.confinedThrough[Int(person)] < Int32(d)
            if done { listedConfined[Int(person)] = false }
            return done
        }
        for p in confinedPeople {
            assert(state.confinedNow[Int(p)] == state.isConfined(p, onDay: Int32(d)), "confinement events and windows disagree")
            guard state.confinedNow[Int(p)] else { continue }
            if state.isolating[Int(p)] { isolated += 1 } else {
                quarantined += 1
                if quarantinedByApp[Int(p)] { ledger.days[d].quarantinedApp += 1 }
            }
        }
        ledger.days[d].symptomatic = symptomaticNow
        ledger.days[d].infectious = infectiousNow
        ledger.days[d].confined = quarantined + isolated
        ledger.days[d].load.quarantined = quarantined
        ledger.days[d].load.isolated = isolated
        let funnel = backend.pipeline.funnel
        ledger.days[d].load.teleTANCalls = funnel.teleTAN - funnelBefore.teleTAN
        if operatorValidatesOTP { ledger.days[d].load.otpValidations = funnel.verified - funnelBefore.verified }
        funnelBefore = (funnel.teleTAN, funnel.verified)
        // The next day's contact phase runs before this stage's startDay.
        state.dayIndex = Int32(d + 1)
    }

    /// Newly notified app users quarantine, test and call the hotline, each with a probability
    /// from their own stream.
    private func reactToNotifications(_ day: SimulatedDay) {
        guard parameters.actsOnNotifications else { return }
        let fresh = detection.detection.notifications.keys.filter { !notifiedHandled.contains($0) }.sorted()
        for phone in fresh {
            notifiedHandled.insert(phone)
            let person = population.owners[Int(phone)]
            let at = detection.detection.notifications[phone]!.at
            let rng = RandomStream(seed: seed, stream: "epidemic.notified", index: UInt64(person), generator: .taus2)
            let quarantines = rng.bernoulli(p: parameters.quarantineCompliance)
            let tests = rng.bernoulli(p: parameters.notifiedTestProbability)
            let hotline = RandomStream(seed: seed, stream: "epidemic.hotline", index: UInt64(person), generator: .taus2)
            if hotline.bernoulli(p: parameters.hotlineCallShare) { ledger.days[day.index].load.hotlineCallsApp += 1 }
            ledger.notified(person: person, dayIndex: day.index, infected: state.infectedAt[Int(person)] <= at)
            if quarantines {
                confine(person, from: day.index + 1, days: parameters.quarantineDays, isolation: false, byApp: true)
                ledger.days[day.index].quarantineStarts += 1
            }
            if tests { schedule(.test(person, .notification), max(at, day.end) + Self.seconds(parameters.notificationToTestDays)) }
        }
    }

    /// A test at `t`: positive while infectious; a positive result arrives at the earliest at the
    /// next midnight (the health system takes its day's cases then) and may start isolation.
    private func test(_ person: Int32, at t: SimTime, reason: TestReason) {
        guard !positive.contains(person) else { return }
        let d = dayIndex(t)
        let isPositive = state.isInfectious(person, at: t)
        ledger.test(dayIndex: d, reason: reason, positive: isPositive)
        guard isPositive else { return }
        positive.insert(person)
        let p = Int(person)
        let resultAt = max(t + Self.seconds(parameters.resultDelayDays), start + Int64(d + 1) * SimDuration.day)
        let onset = symptomOnset[p] <= t ? symptomOnset[p] : nil
        let c = PositiveCase(person: person, infectedAt: state.infectedAt[p], infectiousFromDay: SimClock.dayNumber(state.infectiousFrom[p]),
                             symptomOnset: onset, testedAt: t, resultAt: resultAt)
        dueCases[SimClock.dayNumber(resultAt), default: []].append(c)
        let rng = RandomStream(seed: seed, stream: "epidemic.isolation", index: UInt64(person), generator: .taus2)
        if rng.bernoulli(p: parameters.isolationCompliance) {
            confine(person, from: dayIndex(resultAt), days: parameters.isolationDays, isolation: true)
            ledger.days[d].load.isolationStarts += 1
        }
        if let tracing {
            tracing.interview(person, due: resultAt + Self.seconds(tracing.parameters.delayDays),
                              fromDay: dayIndex(min(onset ?? t, t)) - tracing.parameters.lookbackDays)
        }
    }

    /// The health office's day: interviews and calls within capacity; a called contact
    /// quarantines and tests with probabilities from their own stream ("epidemic.traced", person).
    private func trace(_ tracing: ManualTracing, _ day: SimulatedDay) {
        let d = day.index
        let done = tracing.run(day: d, end: day.end) { positive.contains($0) }
        ledger.days[d].load.interviews = done.interviews
        ledger.days[d].load.interviewBacklog = done.interviewBacklog
        ledger.days[d].load.calls = done.calls.count
        ledger.days[d].load.callBacklog = done.callBacklog
        ledger.days[d].load.expiredCalls = done.expired
        let p = tracing.parameters
        for person in done.calls {
            let rng = RandomStream(seed: seed, stream: "epidemic.traced", index: UInt64(person), generator: .taus2)
            let quarantines = rng.bernoulli(p: p.quarantineCompliance)
            let tests = rng.bernoulli(p: p.testProbability)
            if quarantines {
                confine(person, from: d + 1, days: parameters.quarantineDays, isolation: false)
                ledger.days[d].load.manualQuarantineStarts += 1
            }
            if tests { schedule(.test(person, .manualTracing), day.end + Self.seconds(p.testDelayDays)) }
        }
    }

    private func confine(_ person: Int32, from: Int, days: Int, isolation: Bool, byApp: Bool = false) {
        let p = Int(person)
        if !listedConfined[p] {
            listedConfined[p] = true
            confinedPeople.append(person)
        }
        let through = Int32(from + days - 1)
        if state.confinedThrough[p] >= state.confinedFrom[p] && state.confinedThrough[p] >= Int32(from) - 1 {
            state.isolating[p] = state.isolating[p] || isolation
            guard through > state.confinedThrough[p] else { return }
            state.confinedThrough[p] = through
        } else {
            state.isolating[p] = isolation
            quarantinedByApp[p] = byApp
            state.confinedFrom[p] = Int32(from)
            state.confinedThrough[p] = through
            schedule(.confinementStart(person), start + Int64(from) * SimDuration.day)
        }
        schedule(.confinementEnd(person), start + Int64(through + 1) * SimDuration.day)
    }

    /// The health system's cases for the day starting at `midnight`, in result-time order.
    private func cases(arrivingOn midnight: SimTime) -> [PositiveCase] {
        let day = SimClock.dayNumber(midnight)
        let cases = dueCases.removeValue(forKey: day) ?? []
        return cases.sorted { ($0.resultAt, $0.person) < ($1.resultAt, $1.person) }
    }

    private static func seconds(_ days: Double) -> SimTime { Int64(days * Double(SimDuration.day)) }

    // MARK: results

    package static let dailyColumns = ["epi_new_infections"] + ContactLayer.allCases.map { "epi_infections_" + $0.name }
        + ["epi_imports", "epi_infectious", "epi_symptom_onsets", "epi_tests_symptoms", "epi_tests_notification", "epi_positives",
           "epi_notified", "epi_quarantine_starts", "epi_confined", "epi_tests_manual_tracing", "epi_quarantine_starts_manual",
           "epi_quarantined", "epi_isolated", "epi_symptomatic", "epi_quarantined_app", "epi_quarantined_manual"]

    package func dailyValues(_ day: SimulatedDay) -> [ResultTable.Cell] { ledger.days[day.index].cells }

    package func result() -> EpidemicSummary {
        var summary = ledger.summary(population: population.size, parameters: parameters, reproduction: reproduction.summary,
                                     uploadingCases: backend.pipeline.funnel.uploaded)
        summary.householdSecondaryAttackRate = HouseholdAttackRate(network: network, infectedAt: state.infectedAt,
                                                                   recoveredAt: state.recoveredAt, infector: state.infector, runEnd: runEnd)
        if parameters.actsOnNotifications { summary.notifiedInfectedByNotifier = infectedByNotifier }
        return summary
    }

    /// Notified people (those handled) whose infector uploaded one of the keys that notified them.
    private var infectedByNotifier: ProportionSummary {
        let notifications = detection.detection.notifications
        let count = notifiedHandled.reduce(0) { n, phone in
            let source = state.infector[Int(population.owners[Int(phone)])]
            return n + (source >= 0 && notifications[phone]?.uploaders.contains(source) == true ? 1 : 0)
        }
        return ProportionSummary(count, of: notifiedHandled.count)
    }

    private var runEnd: SimTime { start + Int64(ledger.days.count) * SimDuration.day }

    /// Made once, after the last day (both `result()` and `reproductionTable()` read it).
    private lazy var reproduction = ReproductionReport(days: ledger.days, runEnd: runEnd, parameters: parameters.rEstimate)

    /// Bytes of manual tracing's kept contacts (nil without manual tracing), for the store report.
    package var tracingStoreBytes: Int? { tracing?.storeBytes }

    /// reproduction.csv: the true case reproduction number beside the analyst's estimate.
    package func reproductionTable() -> ResultTable { reproduction.table(start: start) }

    /// New infections per day (the counterfactual's column in the other run's daily.csv).
    package var newInfectionsByDay: [Int] { ledger.days.map(\.newInfections) }

    /// load_daily.csv: what each day asked of test sites, hotlines and health offices.
    package func loadTable() -> ResultTable {
        let days = ledger.days, start = start
        return .computed(columns: ["day", "date"] + EpidemicLedger.loadColumns, count: days.count) { d in
            [.integer(Int64(d)), .text(CivilCalendar.isoDateString(start + Int64(d) * SimDuration.day))] + days[d].loadCells
        }
    }
}
