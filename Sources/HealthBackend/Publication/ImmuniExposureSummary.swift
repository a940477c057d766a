// What an Immuni phone's exposure detection hands to its upload (detection → backend): the
// `exposure_detection_summaries` of `POST /v1/ingestion/upload`, encoded as the app encodes them.

/// One exposure of an Exposure Detection Summary (A/G framework v1 `ENExposureInfo`).
public struct ImmuniExposureInfo: Sendable, Hashable, Encodable {
    public var date: String  // yyyy-MM-dd
    public var duration: Int  // seconds
    public var attenuationValue: Int
    public var attenuationDurations: [Int]  // 3 buckets, seconds
    public var transmissionRiskLevel: Int
    public var totalRiskScore: Int

    public init(date: String, duration: Int, attenuationValue: Int, attenuationDurations: [Int],
                transmissionRiskLevel: Int, totalRiskScore: Int) {
        self.date = date
        self.duration = duration
        self.attenuationValue = attenuationValue
        self.attenuationDurations = attenuationDurations
        self.transmissionRiskLevel = transmissionRiskLevel
        self.totalRiskScore = totalRiskScore
    }

    package enum CodingKeys: String, CodingKey {
        case date, duration
        case attenuationValue = "attenuation_value", attenuationDurations = "attenuation_durations"
        case transmissionRiskLevel = "transmission_risk_level", totalRiskScore = "total_risk_score"
    }
}

/// One detection's summary (A/G framework v1 `ENExposureDetectionSummary`) with its exposures.
public struct ImmuniExposureSummary: Sendable, Hashable, Encodable {
    public var date: String
    public var matchedKeyCount: Int
    public var daysSinceLastExposure: Int
    public var attenuationDurations: [Int]
    public var maximumRiskScore: Int
    public var exposureInfo: [ImmuniExposureInfo]

    public init(date: String, matchedKeyCount: Int, daysSinceLastExposure: Int, attenuationDurations: [Int],
                maximumRiskScore: Int, exposureInfo: [ImmuniExposureInfo]) {
        self.date = date
        self.matchedKeyCount = matchedKeyCount
        self.daysSinceLastExposure = daysSinceLastExposure
        self.attenuationDurations = attenuationDurations
        self.maximumRiskScore = maximumRiskScore
        self.exposureInfo = exposureInfo
    }

    package enum CodingKeys: String, CodingKey {
        case date
        case matchedKeyCount = "matched_key_count", daysSinceLastExposure = "days_since_last_exposure"
        case attenuationDurations = "attenuation_durations", maximumRiskScore = "maximum_risk_score"
        case exposureInfo = "exposure_info"
    }
}
