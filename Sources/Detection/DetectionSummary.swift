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

    package enum CodingKeys: String, CodingKey {
        case preset, model, identifiersDerived = "identifiers_derived", encountersChecked = "encounters_checked"
        case matchedEncounters = "matched_encounters", notified, truePositives = "true_positives"
        case falsePositives = "false_positives", closeContactsWithApp = "close_contacts_with_app"
        case falseNegatives = "false_negatives", falseNegativeCauses = "false_negative_causes", precision, recall
        case falsePositivesPer1000Notified = "false_positives_per_1000_notified", falseNegativeRate = "false_negative_rate"
        case latencyHours = "latency_hours", indexCasesWithNotifications = "index_cases_with_notifications"
        case keyFileRateLimit = "key_file_rate_limit", schedule
    }
}
