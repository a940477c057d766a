import EventEngine
import GSL
import SimulationCore
import World

/// Why a person was tested.
package enum TestReason: Int, Sendable {
    case symptoms, notification, manualTracing
}

/// The epidemic's counts, by day and in total.
struct EpidemicLedger {
    struct Day {
        var newInfections = 0
        var byLayer = [Int](repeating: 0, count: ContactLayer.allCases.count)
        var imports = 0
        var infectious = 0
        var symptomOnsets = 0
        /// People symptomatic at the day's end (onset passed, not yet recovered).
        var symptomatic = 0
        /// People in quarantine that day whose window an app notification opened (the rest: manual tracing).
        var quarantinedApp = 0
        var tests = [0, 0, 0]
        var positives = 0
        var notified = 0
        /// Quarantines started after an app notification (daily.csv's `epi_quarantine_starts`).
        var quarantineStarts = 0
        var confined = 0
        var load = Load()
        /// Infections caused by the people infected this day, and the last of their recoveries.
        var secondary = 0
        var lastRecovery: SimTime = .min

        /// daily.csv's epidemic columns.
        var cells: [ResultTable.Cell] {
            ([newInfections] + byLayer + [imports, infectious, symptomOnsets, tests[0], tests[1]]
             + [positives, notified, quarantineStarts, confined, tests[2], load.manualQuarantineStarts, load.quarantined, load.isolated]
             + [symptomatic, quarantinedApp, load.quarantined - quarantinedApp])
                .map { .integer(Int64($0)) }
        }

        /// load_daily.csv's columns after day and date.
        var loadCells: [ResultTable.Cell] {
            ([tests[0], tests[1], tests[2], tests.reduce(0, +), positives, notified, load.hotlineCallsApp, load.teleTANCalls,
              load.otpValidations, quarantineStarts, load.manualQuarantineStarts, load.isolationStarts, load.quarantined,
              load.isolated, load.interviews, load.interviewBacklog, load.calls, load.callBacklog, load.expiredCalls]).map { .integer(Int64($0)) }
        }
    }

    /// What the day asked of hotlines, health offices and test sites (load_daily.csv).
    struct Load {
        var hotlineCallsApp = 0
        var teleTANCalls = 0
        var otpValidations = 0
        var manualQuarantineStarts = 0
        var isolationStarts = 0
        var quarantined = 0
        var isolated = 0
        var interviews = 0
        var interviewBacklog = 0
        var calls = 0
        var callBacklog = 0
        var expiredCalls = 0
    }

    static let loadColumns = ["tests_symptoms", "tests_app_notification", "tests_manual_tracing", "tests", "positives", "app_notified",
                              "hotline_calls_app", "hotline_calls_teletan", "operator_otp_validations", "quarantine_orders_app",
                              "quarantine_orders_manual", "isolation_orders", "people_quarantined", "people_isolated",
                              "tracing_interviews", "tracing_interview_backlog", "tracing_calls", "tracing_call_backlog",
                              "tracing_calls_expired"]

    var days: [Day]
    var positivesByReason = [0, 0, 0]
    var notifiedPeople = 0
    var notifiedAlreadyInfected = 0
    /// Day each notified person was notified (-1: never), to count later infections among them.
    var notifiedOn: [Int32]
    var infectedAfterNotification = 0

    init(days: Int, people: Int) {
        self.days = Array(repeating: Day(), count: days)
        notifiedOn = Array(repeating: -1, count: people)
    }

    /// An infection on day `d`; `sourceDayIndex`: the day its source was infected (nil: seeded or imported).
    mutating func infection(dayIndex d: Int, layer: ContactLayer?, person: Int32, recoveredAt: SimTime, sourceDayIndex: Int?) {
        guard days.indices.contains(d) else { return }
        days[d].newInfections += 1
        days[d].lastRecovery = max(days[d].lastRecovery, recoveredAt)
        if let s = sourceDayIndex { days[s].secondary += 1 }
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

    func summary(population: Int, parameters: EpidemicParameters, reproduction: ReproductionSummary, uploadingCases: Int) -> EpidemicSummary {
        let infections = days.reduce(0) { $0 + $1.newInfections }
        let confinedDays = days.reduce(0) { $0 + $1.confined }
        func total(_ value: (Day) -> Int) -> Int { days.reduce(0) { $0 + value($1) } }
        let load = LoadSummary(
            testsAfterManualTracing: total { $0.tests[2] }, positivesAfterManualTracing: positivesByReason[2],
            hotlineCallsApp: total(\.load.hotlineCallsApp), hotlineCallsTeleTAN: total(\.load.teleTANCalls),
            operatorOTPValidations: total(\.load.otpValidations), quarantineOrdersApp: total(\.quarantineStarts),
            quarantineOrdersManual: total(\.load.manualQuarantineStarts), isolationOrders: total(\.load.isolationStarts),
            quarantinedPersonDays: total(\.load.quarantined), isolatedPersonDays: total(\.load.isolated),
            tracingInterviews: total(\.load.interviews), tracingCalls: total(\.load.calls), tracingCallsExpired: total(\.load.expiredCalls),
            peakInterviewBacklog: days.map(\.load.interviewBacklog).max() ?? 0, peakCallBacklog: days.map(\.load.callBacklog).max() ?? 0,
            appNotifiedTested: ProportionSummary(total { $0.tests[1] }, of: notifiedPeople),
            appNotifiedQuarantined: ProportionSummary(total(\.quarantineStarts), of: notifiedPeople))
        return EpidemicSummary(
            infections: infections, imports: days.reduce(0) { $0 + $1.imports },
            attackRate: ProportionSummary(infections, of: population),
            infectionsByLayer: NamedValues(ContactLayer.allCases.map { layer in (layer.name, days.reduce(0) { $0 + $1.byLayer[layer.rawValue] }) }),
            testsForSymptoms: days.reduce(0) { $0 + $1.tests[0] }, testsAfterNotification: days.reduce(0) { $0 + $1.tests[1] },
            positivesForSymptoms: positivesByReason[0], positivesAfterNotification: positivesByReason[1],
            notified: notifiedPeople, notifiedAlreadyInfected: ProportionSummary(notifiedAlreadyInfected, of: notifiedPeople),
            notifiedInfectedLater: ProportionSummary(infectedAfterNotification, of: notifiedPeople - notifiedAlreadyInfected),
            confinedPersonDays: confinedDays, peakInfectious: days.map(\.infectious).max() ?? 0,
            notifiedPerUploadingCase: uploadingCases > 0 ? Double(notifiedPeople) / Double(uploadingCases) : nil,
            uploadingCases: uploadingCases, load: load, reproduction: reproduction)
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
    /// The secondary attack rate among notified contacts: notified people whose infector was a
    /// case whose keys raised the notification (before or after it; from who infected whom).
    public var notifiedInfectedByNotifier: ProportionSummary?
    /// Person-days of quarantine and isolation.
    public var confinedPersonDays: Int
    public var peakInfectious: Int
    /// With `counterfactual`: infections of the same seed with nobody acting on notifications
    /// (common random numbers: every draw is keyed by person, day or contact), and the difference.
    public var counterfactualInfections: Int?
    public var infectionsAverted: Int?
    /// Quarantine person-days (app and manual) per infection averted, when some were averted.
    public var quarantineDaysPerInfectionAverted: Double?
    /// People the app notified per index case who uploaded keys (counts behind it beside).
    public var notifiedPerUploadingCase: Double?
    public var uploadingCases: Int
    /// What the epidemic asked of test sites, hotlines and health offices (totals of load_daily.csv).
    public var load: LoadSummary
    /// The analyst's reproduction-number estimate against the truth (reproduction.csv).
    public var reproduction: ReproductionSummary
    /// Household members infected while their household's first case was infectious.
    public var householdSecondaryAttackRate: HouseholdAttackRate?

    package enum CodingKeys: String, CodingKey {
        case infections, imports, attackRate = "attack_rate", infectionsByLayer = "infections_by_layer"
        case testsForSymptoms = "tests_for_symptoms", testsAfterNotification = "tests_after_notification"
        case positivesForSymptoms = "positives_for_symptoms", positivesAfterNotification = "positives_after_notification"
        case notified, notifiedAlreadyInfected = "notified_already_infected", notifiedInfectedLater = "notified_infected_later"
        case notifiedInfectedByNotifier = "notified_infected_by_notifier"
        case confinedPersonDays = "confined_person_days", peakInfectious = "peak_infectious"
        case counterfactualInfections = "counterfactual_infections", infectionsAverted = "infections_averted", load, reproduction
        case quarantineDaysPerInfectionAverted = "quarantine_person_days_per_infection_averted"
        case notifiedPerUploadingCase = "notified_per_uploading_case", uploadingCases = "uploading_cases"
        case householdSecondaryAttackRate = "household_secondary_attack_rate"
    }
}

/// summary.json → `epidemic.load`: the run's totals of load_daily.csv.
public struct LoadSummary: Equatable, Sendable, Encodable {
    public var testsAfterManualTracing: Int
    public var positivesAfterManualTracing: Int
    public var hotlineCallsApp: Int
    public var hotlineCallsTeleTAN: Int
    public var operatorOTPValidations: Int
    public var quarantineOrdersApp: Int
    public var quarantineOrdersManual: Int
    public var isolationOrders: Int
    public var quarantinedPersonDays: Int
    public var isolatedPersonDays: Int
    public var tracingInterviews: Int
    public var tracingCalls: Int
    /// Calls never made: the office fell behind by a whole quarantine period.
    public var tracingCallsExpired: Int
    public var peakInterviewBacklog: Int
    public var peakCallBacklog: Int
    /// Shares of notified app users who tested, and who quarantined, because of the notification.
    public var appNotifiedTested: ProportionSummary
    public var appNotifiedQuarantined: ProportionSummary

    package enum CodingKeys: String, CodingKey {
        case testsAfterManualTracing = "tests_after_manual_tracing", positivesAfterManualTracing = "positives_after_manual_tracing"
        case hotlineCallsApp = "hotline_calls_app", hotlineCallsTeleTAN = "hotline_calls_teletan"
        case operatorOTPValidations = "operator_otp_validations", quarantineOrdersApp = "quarantine_orders_app"
        case quarantineOrdersManual = "quarantine_orders_manual", isolationOrders = "isolation_orders"
        case quarantinedPersonDays = "quarantined_person_days", isolatedPersonDays = "isolated_person_days"
        case tracingInterviews = "tracing_interviews", tracingCalls = "tracing_calls", tracingCallsExpired = "tracing_calls_expired"
        case peakInterviewBacklog = "peak_interview_backlog", peakCallBacklog = "peak_call_backlog"
        case appNotifiedTested = "app_notified_tested", appNotifiedQuarantined = "app_notified_quarantined"
    }
}
