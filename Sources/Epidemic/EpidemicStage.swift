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
    private let history: NaturalHistory
    let state: EpidemicState
    private var recorders: [TransmissionRecorder] = []
    /// Infected people in infection order.
    private(set) var infected: [Int32] = []
    private var notifiedHandled: Set<Int32> = []
    private var pendingTests: [PendingTest] = []
    /// Positive results by the UTC day number they arrive on.
    private var dueCases: [Int64: [PositiveCase]] = [:]
    private var positive: Set<Int32> = []
    private(set) var ledger: EpidemicLedger

    struct PendingTest {
        var person: Int32
        var at: SimTime
        var reason: TestReason
    }

    package init(_ run: RunContext, parameters: EpidemicParameters, world: WorldStage, backend: KeySubmissionStage,
                 detection: DetectionStage) {
        self.parameters = parameters
        seed = run.seed
        start = run.start
        population = world.population
        self.detection = detection
        history = NaturalHistory(parameters)
        state = EpidemicState(people: world.population.size)
        symptomOnset = Array(repeating: .max, count: world.population.size)
        ledger = EpidemicLedger(days: run.days, people: world.population.size)
        world.contactObservers.append(self)
        world.contactGate = self
        backend.pipeline.takeCases { [unowned self] midnight in self.cases(arrivingOn: midnight) }
    }

    // MARK: contact phase

    package func beginShards(_ count: Int) {
        recorders = (0..<count).map { _ in TransmissionRecorder(state: state, history: history, seed: seed) }
    }

    package func recorder(shard index: Int) -> any ContactRecorder { recorders[index] }

    /// Applies the day's infecting contacts: a person infected by several is infected by the earliest.
    package func endShards() {
        let found = recorders.flatMap(\.found).sorted { ($0.target, $0.at, $0.source) < ($1.target, $1.at, $1.source) }
        recorders = []
        for c in found where state.infectedAt[Int(c.target)] == .max {
            infect(c.target, at: c.at, layer: c.layer)
        }
    }

    package func removes(_ contact: ContactView) -> Bool {
        contact.layer != .household && (state.isConfined(contact.a) || state.isConfined(contact.b))
    }

    private func infect(_ person: Int32, at t: SimTime, layer: ContactLayer?) {
        let rng = RandomStream(seed: seed, stream: "epidemic.history", index: UInt64(person), generator: .taus2)
        let course = history.course(infectedAt: t, age: population.age[Int(person)], rng: rng)
        state.infectedAt[Int(person)] = t
        state.infectiousFrom[Int(person)] = course.infectiousFrom
        state.recoveredAt[Int(person)] = course.recoveredAt
        state.relativeInfectiousness[Int(person)] = Float(course.relativeInfectiousness)
        infected.append(person)
        symptomOnset[Int(person)] = course.symptomOnset ?? .max
        ledger.infection(dayIndex: dayIndex(t), layer: layer, person: person)
    }

    /// Each person's symptom onset; .max: none (not infected, or asymptomatic).
    private var symptomOnset: [SimTime]

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

    package func endDay(_ day: SimulatedDay) {
        let d = day.index
        reactToNotifications(day)
        // Symptom onsets today: a test with some probability (stream "epidemic.symptom_test", person).
        for person in infected {
            let onset = symptomOnset[Int(person)]
            guard onset >= day.midnight, onset < day.end else { continue }
            ledger.days[d].symptomOnsets += 1
            let rng = RandomStream(seed: seed, stream: "epidemic.symptom_test", index: UInt64(person), generator: .taus2)
            if rng.bernoulli(p: parameters.symptomaticTestProbability) {
                pendingTests.append(PendingTest(person: person, at: onset + Self.seconds(parameters.onsetToTestDays), reason: .symptoms))
            }
        }
        runTests(before: day.end, dayIndex: d)
        var infectious = 0, confined = 0
        for p in infected where state.isInfectious(p, at: day.end) { infectious += 1 }
        state.dayIndex = Int32(d)
        for p in 0..<population.size where state.isConfined(Int32(p)) { confined += 1 }
        ledger.days[d].infectious = infectious
        ledger.days[d].confined = confined
        // The next day's contact phase runs before this stage's startDay.
        state.dayIndex = Int32(d + 1)
    }

    /// Newly notified app users quarantine and test, each with a probability from their own stream.
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
            ledger.notified(person: person, dayIndex: day.index, infected: state.infectedAt[Int(person)] <= at)
            if quarantines {
                confine(person, from: day.index + 1, days: parameters.quarantineDays)
                ledger.days[day.index].quarantineStarts += 1
            }
            if tests {
                pendingTests.append(PendingTest(person: person, at: max(at, day.end) + Self.seconds(parameters.notificationToTestDays),
                                                reason: .notification))
            }
        }
    }

    /// Tests taken before `end`: positive while infectious; a positive result arrives at the
    /// earliest next midnight (the health system draws its day's cases then) and may start isolation.
    private func runTests(before end: SimTime, dayIndex d: Int) {
        let due = pendingTests.filter { $0.at < end }.sorted { ($0.at, $0.person) < ($1.at, $1.person) }
        pendingTests.removeAll { $0.at < end }
        for t in due where !positive.contains(t.person) {
            let isPositive = state.isInfectious(t.person, at: t.at)
            ledger.test(dayIndex: d, reason: t.reason, positive: isPositive)
            guard isPositive else { continue }
            positive.insert(t.person)
            let p = Int(t.person)
            let resultAt = max(t.at + Self.seconds(parameters.resultDelayDays), end)
            let onset = symptomOnset[p] <= t.at ? symptomOnset[p] : nil
            let c = PositiveCase(person: t.person, infectedAt: state.infectedAt[p], infectiousFromDay: SimClock.dayNumber(state.infectiousFrom[p]),
                                 symptomOnset: onset, testedAt: t.at, resultAt: resultAt)
            dueCases[SimClock.dayNumber(resultAt), default: []].append(c)
            let rng = RandomStream(seed: seed, stream: "epidemic.isolation", index: UInt64(t.person), generator: .taus2)
            if rng.bernoulli(p: parameters.isolationCompliance) {
                confine(t.person, from: dayIndex(resultAt), days: parameters.isolationDays)
            }
        }
    }

    private func confine(_ person: Int32, from: Int, days: Int) {
        let p = Int(person)
        if state.confinedThrough[p] >= state.confinedFrom[p] && state.confinedThrough[p] >= Int32(from) - 1 {
            state.confinedThrough[p] = max(state.confinedThrough[p], Int32(from + days - 1))
        } else {
            state.confinedFrom[p] = Int32(from)
            state.confinedThrough[p] = Int32(from + days - 1)
        }
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
           "epi_notified", "epi_quarantine_starts", "epi_confined"]

    package func dailyValues(_ day: SimulatedDay) -> [ResultTable.Cell] { ledger.days[day.index].cells }

    package func result() -> EpidemicSummary { ledger.summary(population: population.size, parameters: parameters) }
}
