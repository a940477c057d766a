/// The scoring presets. `Scenarios/presets/*.yaml` show the same values (a test keeps them equal).
public enum DetectionPreset: String, Sendable, CaseIterable {
    case immuni
    case cwaV1 = "cwa-v1"
    case cwaV2 = "cwa-v2"
    case swisscovid

    public var model: RiskModel {
        switch self {
        case .immuni: .v1(.immuni)
        case .cwaV1: .v1(.cwaV1)
        case .cwaV2: .v2(.cwaV2)
        case .swisscovid: .v1(.swissCovid)
        }
    }

    public var doc: String {
        switch self {
        case .immuni: "Immuni, June 2020: attenuation > 73 dB scores 0, more than 15 minutes scores 5, notify at total risk score ≥ 20"
        case .cwaV1: "Corona-Warn-App v1, June 2020: product of level values, minimum risk score 11, 55/63 dB buckets weighted 1/0.5, divisor 25, high risk ≥ 15"
        case .cwaV2: "Corona-Warn-App v2 (ExposureWindows): 55/63/73 dB buckets weighted 1/0.5/0/0, high risk at ≥ 15 weighted minutes a day"
        case .swisscovid: "SwissCovid, June 2020: minutes below 50 dB plus half the minutes at 50–55 dB, notify at ≥ 15 a day"
        }
    }
}

extension ExposureConfigurationV1 {
    /// Immuni's settings as published June 2020 (gaen.md §3): thresholds [50, 70], attenuation
    /// scores [0,5,…,5], duration scores [0,0,0,0,5,5,5,5], days and TRL all 1, minimum risk
    /// score 1, exposure_info_minimum_risk_score 20.
    public static let immuni = ExposureConfigurationV1(
        attenuationLevelValues: [0, 5, 5, 5, 5, 5, 5, 5],
        daysSinceLastExposureLevelValues: [1, 1, 1, 1, 1, 1, 1, 1],
        durationLevelValues: [0, 0, 0, 0, 5, 5, 5, 5],
        transmissionRiskLevelValues: [1, 1, 1, 1, 1, 1, 1, 1],
        transmissionRiskLevelWhenMissing: 1,
        minimumRiskScore: 1, durationAtAttenuationThresholds: [50, 70], rule: .maximumRiskScore,
        attenuationBucketWeights: [1, 1, 1], riskScoreNormalizationDivisor: 1, notifyThreshold: 20)

    /// CWA v1 (gaen.md §3: minRiskScore 11, thresholds 55/63, weights 1.0/0.5, divisor 25, high
    /// risk ≥ 15). Level values as in CWA's exposure-config of June 2020: attenuation > 73 dB 0
    /// else 1, days 5, duration > 10 minutes 1, TRL score = level; keys without a TRL count as level 5.
    public static let cwaV1 = ExposureConfigurationV1(
        attenuationLevelValues: [0, 1, 1, 1, 1, 1, 1, 1],
        daysSinceLastExposureLevelValues: [5, 5, 5, 5, 5, 5, 5, 5],
        durationLevelValues: [0, 0, 0, 1, 1, 1, 1, 1],
        transmissionRiskLevelValues: [1, 2, 3, 4, 5, 6, 7, 8],
        transmissionRiskLevelWhenMissing: 5,
        minimumRiskScore: 11, durationAtAttenuationThresholds: [55, 63], rule: .weightedMinutes,
        attenuationBucketWeights: [1.0, 0.5, 0.0], riskScoreNormalizationDivisor: 25, notifyThreshold: 15)
}

extension ExposureConfigurationV1 {
    /// SwissCovid's configuration at launch (swisscovid-config-backend, June 2020: thresholds
    /// 50/55 dB, factors 1.0/0.5, trigger 15 minutes; raised to 55/63 dB in July after the tram
    /// measurements): no risk-score filter, weighted minutes compared with 15.
    public static let swissCovid = ExposureConfigurationV1(
        attenuationLevelValues: [1, 1, 1, 1, 1, 1, 1, 1],
        daysSinceLastExposureLevelValues: [1, 1, 1, 1, 1, 1, 1, 1],
        durationLevelValues: [1, 1, 1, 1, 1, 1, 1, 1],
        transmissionRiskLevelValues: [1, 1, 1, 1, 1, 1, 1, 1],
        transmissionRiskLevelWhenMissing: 1,
        minimumRiskScore: 1, durationAtAttenuationThresholds: [50, 55], rule: .weightedMinutes,
        attenuationBucketWeights: [1.0, 0.5, 0.0], riskScoreNormalizationDivisor: 1, notifyThreshold: 15)
}

extension DailySummariesConfigV2 {
    /// CWA v2: its risk parameters (minutes at 0–55 dB weight 1, 55–63 dB 0.5, above 0;
    /// high risk from 15 minutes a day), report types all 1.0. Infectiousness: high from 2 days
    /// before to 5 days after onset, standard otherwise, both weighted 1.0 as CWA's
    /// daily-summaries-config; keys without onset count as standard (CWA drops them, but the
    /// simulated backend may not set onset).
    public static let cwaV2 = DailySummariesConfigV2(
        attenuationBucketThresholds: [55, 63, 73],
        attenuationBucketWeights: [1.0, 0.5, 0.0, 0.0],
        infectiousnessByDaysSinceOnset: (-14...14).map { (-2...5).contains($0) ? 2 : 1 },
        infectiousnessWhenOnsetMissing: 1,
        infectiousnessWeights: [1.0, 1.0],
        reportTypeWeights: [1.0, 1.0, 1.0, 1.0],
        reportTypeWhenMissing: 1,
        minimumWindowScore: 0,
        notifyWeightedMinutes: 15)
}
