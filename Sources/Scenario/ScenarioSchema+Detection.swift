import Simulation

/// The `app` block: exposure detection and risk scoring. `preset` picks a risk model; every
/// other key overrides the preset's value when given (absent keys take the preset's value,
/// filled in by `DetectionPresetResolver`; the defaults shown are those of `cwa-v1` for
/// GAEN v1 keys and `cwa-v2` for GAEN v2 keys).
extension ScenarioSchema {
    static let app: [Field] = [
        Field("detection", .section(detection), doc: "Exposure detection: the risk model (a preset from Scenarios/presets/ plus overrides) and the threshold grid in thresholds.csv."),
    ]

    static let v1AttenuationLevels = ["above_73_db", "64_to_73_db", "52_to_63_db", "34_to_51_db", "28_to_33_db", "16_to_27_db", "11_to_15_db", "10_db_or_less"]
    static let v1DaysLevels = ["14_days_or_more", "12_to_13_days", "10_to_11_days", "8_to_9_days", "6_to_7_days", "4_to_5_days", "2_to_3_days", "0_to_1_days"]
    static let v1DurationLevels = ["0_min", "1_to_5_min", "6_to_10_min", "11_to_15_min", "16_to_20_min", "21_to_25_min", "26_to_30_min", "over_30_min"]
    static let v1RiskLevels = (1...8).map { "level_\($0)" }
    static let infectiousnessNames = ["none", "standard", "high"]

    static func levels(_ names: [String], _ values: [Int], _ doc: String) -> [Field] {
        zip(names, values).map { Field($0, .integer(default: Int64($1), range: 0...8), doc: "\(doc) (\($0.replacingOccurrences(of: "_", with: " ")))") }
    }

    static let detection: [Field] = {
        let v1 = ExposureConfigurationV1.cwaV1, v2 = DailySummariesConfigV2.cwaV2
        return [
            Field("preset", .choice(default: DetectionParameters.default.preset.rawValue, allowed: DetectionPreset.allCases.map(\.rawValue)),
                  doc: DetectionPreset.allCases.map { "`\($0.rawValue)`: \($0.doc)" }.joined(separator: "; ") + ". The preset also picks the GAEN API (v1 or v2)."),
            Field("gaen_v1", .section([
                Field("attenuation_level_values", .section(levels(v1AttenuationLevels, v1.attenuationLevelValues, "Score 0–8 for the duration-weighted mean attenuation")), doc: "ExposureConfiguration attenuation level values."),
                Field("days_since_exposure_level_values", .section(levels(v1DaysLevels, v1.daysSinceLastExposureLevelValues, "Score 0–8 by days since the exposure")), doc: "ExposureConfiguration days-since-last-exposure level values."),
                Field("duration_level_values", .section(levels(v1DurationLevels, v1.durationLevelValues, "Score 0–8 by exposure duration (5-minute steps)")), doc: "ExposureConfiguration duration level values."),
                Field("transmission_risk_level_values", .section(levels(v1RiskLevels, v1.transmissionRiskLevelValues, "Score 0–8 by the key's transmission risk level")), doc: "ExposureConfiguration transmission risk level values."),
                Field("transmission_risk_level_when_missing", .integer(default: Int64(v1.transmissionRiskLevelWhenMissing), range: 0...8), doc: "Level assumed for keys published without one (0 scores 1, like GAEN for an invalid level)."),
                Field("minimum_risk_score", .integer(default: Int64(v1.minimumRiskScore), range: 1...4096), doc: "Risk scores below this count as 0 (GAEN's minimumRiskScore)."),
                Field("attenuation_thresholds_db", .section([
                    Field("low", .integer(default: Int64(v1.durationAtAttenuationThresholds[0]), range: 0...255), unit: "dB", doc: "Upper edge of the low-attenuation (near) bucket."),
                    Field("high", .integer(default: Int64(v1.durationAtAttenuationThresholds[1]), range: 0...255), unit: "dB", doc: "Upper edge of the middle bucket; above it is far."),
                ], check: { v in
                    (v["low"]?.intValue ?? 0) < (v["high"]?.intValue ?? 0) ? nil : "low must be below high"
                }), doc: "GAEN's durationAtAttenuationThresholds: time split into three attenuation buckets."),
                Field("rule", .choice(default: v1.rule.rawValue, allowed: ExposureConfigurationV1.Rule.allCases.map(\.rawValue)),
                      doc: "`max_risk_score` (Immuni): notify when the highest total risk score reaches `notify_threshold`; `weighted_minutes` (CWA v1): highest risk score ÷ `normalization_divisor` × Σ bucket weight × bucket minutes."),
                Field("bucket_weights", .section([
                    Field("low", .number(default: v1.attenuationBucketWeights[0], range: 0...10), doc: "Weight of minutes in the low-attenuation bucket."),
                    Field("middle", .number(default: v1.attenuationBucketWeights[1], range: 0...10), doc: "Weight of minutes in the middle bucket."),
                    Field("high", .number(default: v1.attenuationBucketWeights[2], range: 0...10), doc: "Weight of minutes in the high-attenuation bucket."),
                ]), doc: "Attenuation bucket weights of the `weighted_minutes` rule."),
                Field("normalization_divisor", .number(default: v1.riskScoreNormalizationDivisor, range: 0.001...10_000), doc: "Risk score normalisation of the `weighted_minutes` rule (CWA: 25)."),
                Field("notify_threshold", .number(default: v1.notifyThreshold, range: 0...1_000_000), doc: "Notify at this summary value or above (Immuni: risk score 20; CWA v1: 15 weighted minutes)."),
            ]), doc: "GAEN v1 ExposureConfiguration, used by the `immuni` and `cwa-v1` presets."),
            Field("gaen_v2", .section([
                Field("attenuation_thresholds_db", .section(zip(["immediate", "near", "medium"], v2.attenuationBucketThresholds).map { name, t in
                    Field(name, .integer(default: Int64(t), range: 0...255), unit: "dB", doc: "Upper edge (inclusive) of the \(name) bucket, by typical attenuation.")
                }, check: { v in
                    let t = ["immediate", "near", "medium"].map { v[$0]?.intValue ?? 0 }
                    return t[0] < t[1] && t[1] < t[2] ? nil : "thresholds must increase strictly: immediate < near < medium"
                }), doc: "DailySummariesConfig attenuationBucketThresholdDb."),
                Field("attenuation_weights", .section(zip(["immediate", "near", "medium", "other"], v2.attenuationBucketWeights).map { name, w in
                    Field(name, .number(default: w, range: 0...2.5), doc: "Weight of scan seconds in the \(name) bucket.")
                }), doc: "DailySummariesConfig attenuationBucketWeights (0–2.5)."),
                Field("infectiousness", .section([
                    Field("high_from_days_since_onset", .integer(default: -2, range: -14...14), unit: "days", doc: "First day (relative to symptom onset) of high infectiousness."),
                    Field("high_to_days_since_onset", .integer(default: 5, range: -14...14), unit: "days", doc: "Last day of high infectiousness."),
                    Field("other_days", .choice(default: "standard", allowed: infectiousnessNames), doc: "Infectiousness of the other days within ±14 days of onset (beyond: none, the window is dropped)."),
                    Field("when_onset_missing", .choice(default: infectiousnessNames[v2.infectiousnessWhenOnsetMissing], allowed: infectiousnessNames), doc: "Infectiousness of keys without days since onset."),
                    Field("standard_weight", .number(default: v2.infectiousnessWeights[0], range: 0...2.5), doc: "Weight of standard infectiousness."),
                    Field("high_weight", .number(default: v2.infectiousnessWeights[1], range: 0...2.5), doc: "Weight of high infectiousness."),
                ], check: { v in
                    (v["high_from_days_since_onset"]?.intValue ?? 0) <= (v["high_to_days_since_onset"]?.intValue ?? 0) ? nil : "high_from_days_since_onset must not exceed high_to_days_since_onset"
                }), doc: "DiagnosisKeysDataMapping (days since onset → infectiousness) and infectiousness weights."),
                Field("report_type_weights", .section(zip(["confirmed_test", "confirmed_clinical_diagnosis", "self_report", "recursive"], v2.reportTypeWeights).map { name, w in
                    Field(name, .number(default: w, range: 0...2.5), doc: "Weight of windows from \(name.replacingOccurrences(of: "_", with: " ")) keys.")
                }), doc: "DailySummariesConfig reportTypeWeights."),
                Field("report_type_when_missing", .integer(default: Int64(v2.reportTypeWhenMissing), range: 1...4), doc: "Report type assumed for keys without one (1 confirmed test … 4 recursive)."),
                Field("minimum_window_score", .number(default: v2.minimumWindowScore, range: 0...1440), unit: "weighted minutes", doc: "Windows scoring below this are dropped."),
                Field("notify_weighted_minutes", .number(default: v2.notifyWeightedMinutes, range: 0...1440), unit: "weighted minutes", doc: "Notify when one day's weighted minutes reach this (CWA: 15)."),
            ]), doc: "GAEN v2 ExposureWindows and DailySummariesConfig, used by the `cwa-v2` preset."),
            Field("grid", .section([
                Field("attenuation_from_db", .integer(default: 45, range: 0...255), unit: "dB", doc: "Lowest attenuation threshold of the grid."),
                Field("attenuation_to_db", .integer(default: 80, range: 0...255), unit: "dB", doc: "Highest attenuation threshold of the grid."),
                Field("attenuation_step_db", .integer(default: 5, range: 1...100), unit: "dB", doc: "Step between attenuation thresholds."),
                Field("minutes", .section([5, 10, 15, 20, 30].enumerated().map { i, m in
                    Field("m\(i + 1)", .integer(default: Int64(m), range: 1...1440), unit: "minutes", doc: "Duration threshold \(i + 1) of the grid.")
                }), doc: "The grid's five duration thresholds (minutes a day at or below the attenuation threshold)."),
            ], check: { v in
                (v["attenuation_from_db"]?.intValue ?? 0) <= (v["attenuation_to_db"]?.intValue ?? 0) ? nil : "attenuation_from_db must not exceed attenuation_to_db"
            }), doc: "The attenuation × duration grid scored in the same run (thresholds.csv)."),
        ]
    }()
}
