import GSL
import SimulationCore
/// From the index case's test to the notification, in hours.
public struct LatencyHoursSummary: Equatable, Sendable, Encodable {
    public var count: Int
    public var median: Quantile
    public var p90: Quantile

    package init(sorted: [Double]) {
        count = sorted.count
        median = Quantile(sorted: sorted, 0.5)
        p90 = Quantile(sorted: sorted, 0.9)
    }
}

/// summary.json's `detection` section: GAEN's notifications scored against ground truth.
public struct DetectionSummary: Equatable, Sendable, Encodable {
    public var preset: String
    public var model: String
    public var identifiersDerived: Int64
    public var encountersChecked: Int64
    public var matchedEncounters: Int64
    public var notified: Int
    public var truePositives: Int
    public var falsePositives: Int
    public var closeContactsWithApp: Int
    public var falseNegatives: Int
    /// False negatives by `MissCause`, in its order.
    public var falseNegativeCauses: NamedValues<Int>
    public var precision: ProportionSummary
    public var recall: ProportionSummary
    public var falsePositivesPer1000Notified: ProportionSummary
    public var falseNegativeRate: ProportionSummary
    public var latencyHours: LatencyHoursSummary
    public var indexCasesWithNotifications: Int
    /// Only when a key-file limit is set (nil is not encoded).
    public var keyFileRateLimit: KeyFileRateLimitSummary?
    /// Only when a detection schedule is set (nil is not encoded).
    public var schedule: DetectionScheduleSummary?
    /// Only with `radio.clock_skew.sd_minutes` > 0 (nil is not encoded).
    public var clockSkew: ClockSkewSummary? = nil

    package enum CodingKeys: String, CodingKey {
        case preset, model, identifiersDerived = "identifiers_derived", encountersChecked = "encounters_checked"
        case matchedEncounters = "matched_encounters", notified, truePositives = "true_positives"
        case falsePositives = "false_positives", closeContactsWithApp = "close_contacts_with_app"
        case falseNegatives = "false_negatives", falseNegativeCauses = "false_negative_causes", precision, recall
        case falsePositivesPer1000Notified = "false_positives_per_1000_notified", falseNegativeRate = "false_negative_rate"
        case latencyHours = "latency_hours", indexCasesWithNotifications = "index_cases_with_notifications"
        case keyFileRateLimit = "key_file_rate_limit", schedule, clockSkew = "clock_skew"
    }
}

/// summary.json's `detection.clock_skew`: the phones' clock offsets and what GAEN's drift
/// tolerance let through.
public struct ClockSkewSummary: Equatable, Sendable, Encodable {
    /// Standard deviation and largest absolute value of the app phones' offsets, minutes.
    public var offsetMinutesSD: Double
    public var offsetMinutesMaxAbs: Double
    /// Phones whose clock is off by more than 1 hour.
    public var phonesOffOverAnHour: Int
    /// RPIs of fetched keys heard outside their key's validity ± 2 h by the receiver's clock: not matched.
    public var rpisOutsideTolerance: Int64

    package enum CodingKeys: String, CodingKey {
        case offsetMinutesSD = "offset_minutes_sd", offsetMinutesMaxAbs = "offset_minutes_max_abs"
        case phonesOffOverAnHour = "phones_off_over_an_hour", rpisOutsideTolerance = "rpis_outside_tolerance"
    }

    package init(offsets: [Int32], outside: Int64) {
        let minutes = offsets.map { Double($0) / 60 }
        offsetMinutesSD = Statistics.standardDeviation(minutes)
        offsetMinutesMaxAbs = minutes.map(abs).max() ?? 0
        phonesOffOverAnHour = offsets.filter { abs($0) > 3600 }.count
        rpisOutsideTolerance = outside
    }
}
