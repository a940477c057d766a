import GSL
import SimulationCore
import World

/// Why a person was tested.
enum TestReason: Int {
    case symptoms, notification
}

/// The epidemic's counts, by day and in total.
struct EpidemicLedger {
    struct Day {
        var newInfections = 0
        var byLayer = [Int](repeating: 0, count: ContactLayer.allCases.count)
        var imports = 0
        var infectious = 0
        var symptomOnsets = 0
        var tests = [0, 0]
        var positives = 0
        var notified = 0
        var quarantineStarts = 0
        var confined = 0

        var cells: [ResultTable.Cell] {
            ([newInfections] + byLayer + [imports, infectious, symptomOnsets] + tests
             + [positives, notified, quarantineStarts, confined]).map { .integer(Int64($0)) }
        }
    }

    var days: [Day]
    var positivesByReason = [0, 0]
    var notifiedPeople = 0
    var notifiedAlreadyInfected = 0
    /// Day each notified person was notified (-1: never), to count later infections among them.
    var notifiedOn: [Int32]
    var infectedAfterNotification = 0

    init(days: Int, people: Int) {
        self.days = Array(repeating: Day(), count: days)
        notifiedOn = Array(repeating: -1, count: people)
    }

    mutating func infection(dayIndex d: Int, layer: ContactLayer?, person: Int32) {
        guard days.indices.contains(d) else { return }
        days[d].newInfections += 1
        if let layer { days[d].byLayer[layer.rawValue] += 1 } else { days[d].imports += 1 }
        if notifiedOn[Int(person)] >= 0 { infectedAfterNotification += 1 }
    }

    mutating func notified(person: Int32, dayIndex d: Int, infected: Bool) {
        days[d].notified += 1
        notifiedPeople += 1
        notifiedOn[Int(person)] = Int32(d)
        if infected { notifiedAlreadyInfected += 1 }
    }

    mutating func test(dayIndex d: Int, reason: TestReason, positive: Bool) {
        days[d].tests[reason.rawValue] += 1
        if positive {
            days[d].positives += 1
            positivesByReason[reason.rawValue] += 1
        }
    }

    func summary(population: Int, parameters: EpidemicParameters) -> EpidemicSummary {
        let infections = days.reduce(0) { $0 + $1.newInfections }
        let confinedDays = days.reduce(0) { $0 + $1.confined }
        return EpidemicSummary(
            infections: infections, imports: days.reduce(0) { $0 + $1.imports },
            attackRate: ProportionSummary(infections, of: population),
            infectionsByLayer: NamedValues(ContactLayer.allCases.map { layer in (layer.name, days.reduce(0) { $0 + $1.byLayer[layer.rawValue] }) }),
            testsForSymptoms: days.reduce(0) { $0 + $1.tests[0] }, testsAfterNotification: days.reduce(0) { $0 + $1.tests[1] },
            positivesForSymptoms: positivesByReason[0], positivesAfterNotification: positivesByReason[1],
            notified: notifiedPeople, notifiedAlreadyInfected: ProportionSummary(notifiedAlreadyInfected, of: notifiedPeople),
            notifiedInfectedLater: ProportionSummary(infectedAfterNotification, of: notifiedPeople - notifiedAlreadyInfected),
            confinedPersonDays: confinedDays, peakInfectious: days.map(\.infectious).max() ?? 0)
    }
}

/// summary.json → `epidemic`.
public struct EpidemicSummary: Equatable, Sendable, Encodable {
    public var infections: Int
    /// Infections not through a contact: the first day's seeds and the daily imports.
    public var imports: Int
    /// Share of the population infected during the run (seeded and imported included).
    public var attackRate: ProportionSummary
    public var infectionsByLayer: NamedValues<Int>
    public var testsForSymptoms: Int
    public var testsAfterNotification: Int
    public var positivesForSymptoms: Int
    public var positivesAfterNotification: Int
    public var notified: Int
    /// Notified people already infected when notified.
    public var notifiedAlreadyInfected: ProportionSummary
    /// Notified people not yet infected who were infected afterwards (by anyone).
    public var notifiedInfectedLater: ProportionSummary
    /// Person-days of quarantine and isolation.
    public var confinedPersonDays: Int
    public var peakInfectious: Int
    /// With `counterfactual`: infections of the same seed with nobody acting on notifications
    /// (common random numbers: every draw is keyed by person, day or contact), and the difference.
    public var counterfactualInfections: Int?
    public var infectionsAverted: Int?

    package enum CodingKeys: String, CodingKey {
        case infections, imports, attackRate = "attack_rate", infectionsByLayer = "infections_by_layer"
        case testsForSymptoms = "tests_for_symptoms", testsAfterNotification = "tests_after_notification"
        case positivesForSymptoms = "positives_for_symptoms", positivesAfterNotification = "positives_after_notification"
        case notified, notifiedAlreadyInfected = "notified_already_infected", notifiedInfectedLater = "notified_infected_later"
        case confinedPersonDays = "confined_person_days", peakInfectious = "peak_infectious"
        case counterfactualInfections = "counterfactual_infections", infectionsAverted = "infections_averted"
    }
}
