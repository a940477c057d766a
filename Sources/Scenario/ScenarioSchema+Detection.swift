import Detection
import Simulation

/// The `app` block: exposure detection and risk scoring. `preset` picks a risk model and loads its
/// values; every other key given overrides the preset's value (the defaults shown are those of
/// `cwa-v1` for GAEN v1 keys and `cwa-v2` for GAEN v2 keys).
extension ScenarioSchema {
    static let app: [Field] = [
        .section("detection", detection, doc: """
            Exposure detection: the risk model (a preset from Scenarios/presets/ plus overrides) and the threshold grid in \
            thresholds.csv.
            """),
    ]

    static let v1AttenuationLevels = ["above_73_db", "64_to_73_db", "52_to_63_db", "34_to_51_db", "28_to_33_db", "16_to_27_db",
                                      "11_to_15_db", "10_db_or_less"]
    static let v1DaysLevels = ["14_days_or_more", "12_to_13_days", "10_to_11_days", "8_to_9_days", "6_to_7_days", "4_to_5_days",
                               "2_to_3_days", "0_to_1_days"]
    static let v1DurationLevels = ["0_min", "1_to_5_min", "6_to_10_min", "11_to_15_min", "16_to_20_min", "21_to_25_min", "26_to_30_min",
                                   "over_30_min"]
    static let v1RiskLevels = (1...8).map { "level_\($0)" }

    /// One key 0–8 per element of a v1 level-value array.
    static func levels(_ names: [String], _ path: Field.Path<[Int]>, _ doc: String) -> [Field] {
        names.enumerated().map { i, name in
            Field.integer(name, range: 0...8, doc: "\(doc) (\(name.replacingOccurrences(of: "_", with: " ")))",
                          get: { Int64($0[keyPath: path][i]) }, set: { $0[keyPath: path][i] = Int(clamping: $1) })
        }
    }

    static func ints(_ names: [String], _ path: Field.Path<[Int]>, range: ClosedRange<Int64>, unit: String?,
                     doc: (String) -> String) -> [Field] {
        names.enumerated().map { i, name in
            Field.integer(name, range: range, unit: unit, doc: doc(name),
                          get: { Int64($0[keyPath: path][i]) }, set: { $0[keyPath: path][i] = Int(clamping: $1) })
        }
    }

    static func weights(_ names: [String], _ path: Field.Path<[Double]>, range: ClosedRange<Double>, doc: (String) -> String) -> [Field] {
        Field.numbers(path, keys: names.map { ($0, doc($0)) }, range: range)
    }

    static let detection: [Field] = [
        .choice("preset", DetectionPreset.self, doc: DetectionPreset.allCases.map { "`\($0.rawValue)`: \($0.doc)" }.joined(separator: "; ")
                + ". The preset also picks the GAEN API (v1 or v2).", get: { $0.detection.preset }, set: { $0.detection.select($1) }),
        .section("gaen_v1", gaenV1, doc: "GAEN v1 ExposureConfiguration, used by the `immuni` and `cwa-v1` presets."),
        .section("gaen_v2", gaenV2, doc: "GAEN v2 ExposureWindows and DailySummariesConfig, used by the `cwa-v2` preset."),
        .section("grid", [
            .integer("attenuation_from_db", \S.detection.gridAttenuationFrom, range: 0...255, unit: "dB",
                     doc: "Lowest attenuation threshold of the grid."),
            .integer("attenuation_to_db", \S.detection.gridAttenuationTo, range: 0...255, unit: "dB",
                     doc: "Highest attenuation threshold of the grid."),
            .integer("attenuation_step_db", \S.detection.gridAttenuationStep, range: 1...100, unit: "dB",
                     doc: "Step between attenuation thresholds."),
            .section("minutes", ints((1...5).map { "m\($0)" }, \S.detection.gridMinutes, range: 1...1440, unit: "minutes") {
                "Duration threshold \($0.dropFirst()) of the grid."
            }, doc: "The grid's five duration thresholds (minutes a day at or below the attenuation threshold)."),
        ], check: { s in
            s.detection.gridAttenuationFrom <= s.detection.gridAttenuationTo ? nil : "attenuation_from_db must not exceed attenuation_to_db"
        }, doc: "The attenuation × duration grid scored in the same run (thresholds.csv)."),
        .section("key_file_rate_limit", [
            .integer("ios_files_per_day", \S.detection.keyFileRateLimit.iosFilesPerDay, range: 0...1_000, unit: "files/day",
                     doc: "Key files an iPhone's exposure detection may check per UTC day; 0: no limit (iOS 13.7+/ENAPI v2: 15)."),
            .integer("android_files_per_day", \S.detection.keyFileRateLimit.androidFilesPerDay, range: 0...1_000, unit: "files/day",
                     doc: "Key files an Android phone may check per UTC day; 0: no limit (provideDiagnosisKeys: 20 a day, cwa-documentation#466)."),
        ], doc: """
            The OS's daily limit on key files handed to exposure detection; files over it wait for the next day's quota \
            (summary detection.key_file_rate_limit counts them). Off by default: outputs as before.
            """),
        .section("schedule", [
            .integer("min_interval_s", \S.detection.schedule.minIntervalSeconds, range: 0...604_800, unit: "seconds", doc: """
                Least time between two exposure detections of a phone; files fetched in between wait for the next. 0: detect at \
                every check that fetched files. Immuni: 14400 (`exposure_detection_period`, June 2020 settings); CWA 1.7+: 14400 \
                on Wi-Fi (6 a day, cwa-website#628); CWA 1.0–1.6 on iOS: 86400 (24 h after the last check, cwa-app-ios#1515).
                """),
            .integer("max_per_utc_day", \S.detection.schedule.maxPerUTCDay, range: 0...1_000, unit: "detections/day", doc: """
                Most exposure detections per phone and UTC day; 0: no limit. CWA 1.0–1.6 on Android: 1 (cwa-app-ios#1515); \
                CWA 1.7+: 6 on Wi-Fi, 1 on mobile data (cwa-website#628).
                """),
            .section("ios", platformSchedule(\S.detection.schedule.ios, "iPhones"), doc: """
                iPhones' own schedule; a key left at −1 keeps the shared value. CWA 1.0–1.6 on iOS: min_interval_s 86400 \
                (24 h after the last check, cwa-app-ios#1515).
                """),
            .section("android", platformSchedule(\S.detection.schedule.android, "Android phones"), doc: """
                Android phones' own schedule; a key left at −1 keeps the shared value. CWA 1.0–1.6 on Android: \
                max_per_utc_day 1 (once per UTC day at the earliest chance, cwa-app-ios#1515).
                """),
        ], doc: """
            When the app runs exposure detection: at a successful check, if it holds fetched files and the schedule allows \
            (summary detection.schedule counts detections and held files). Off by default: detection at every check that \
            fetched files, outputs as before.
            """),
    ]

    /// One platform's overrides of the detection schedule (−1: the shared value).
    static func platformSchedule(_ path: Field.Path<DetectionSchedule.PlatformLimits>, _ phones: String) -> [Field] {
        [
            .integer("min_interval_s", range: -1...604_800, unit: "seconds", doc: """
                Least time between two exposure detections of one of the \(phones); −1 (default): min_interval_s above.
                """, get: { $0[keyPath: path].minIntervalSeconds }, set: { $0[keyPath: path].minIntervalSeconds = $1 }),
            .integer("max_per_utc_day", range: -1...1_000, unit: "detections/day", doc: """
                Most exposure detections per UTC day of one of the \(phones); −1 (default): max_per_utc_day above. The \
                summary's detection.schedule then counts each platform apart (ios, android).
                """, get: { Int64($0[keyPath: path].maxPerUTCDay) }, set: { $0[keyPath: path].maxPerUTCDay = Int(clamping: $1) }),
        ]
    }

    static let gaenV1: [Field] = [
        .section("attenuation_level_values", levels(v1AttenuationLevels, \S.detection.v1.attenuationLevelValues,
                                                    "Score 0–8 for the duration-weighted mean attenuation"),
                 doc: "ExposureConfiguration attenuation level values."),
        .section("days_since_exposure_level_values", levels(v1DaysLevels, \S.detection.v1.daysSinceLastExposureLevelValues,
                                                            "Score 0–8 by days since the exposure"),
                 doc: "ExposureConfiguration days-since-last-exposure level values."),
        .section("duration_level_values", levels(v1DurationLevels, \S.detection.v1.durationLevelValues,
                                                 "Score 0–8 by exposure duration (5-minute steps)"),
                 doc: "ExposureConfiguration duration level values."),
        .section("transmission_risk_level_values", levels(v1RiskLevels, \S.detection.v1.transmissionRiskLevelValues,
                                                          "Score 0–8 by the key's transmission risk level"),
                 doc: "ExposureConfiguration transmission risk level values."),
        .integer("transmission_risk_level_when_missing", \S.detection.v1.transmissionRiskLevelWhenMissing, range: 0...8,
                 doc: "Level assumed for keys published without one (0 scores 1, like GAEN for an invalid level)."),
        .integer("minimum_risk_score", \S.detection.v1.minimumRiskScore, range: 1...4096,
                 doc: "Risk scores below this count as 0 (GAEN's minimumRiskScore)."),
        .section("attenuation_thresholds_db", ints(["low", "high"], \S.detection.v1.durationAtAttenuationThresholds, range: 0...255,
                                                   unit: "dB") {
            $0 == "low" ? "Upper edge of the low-attenuation (near) bucket." : "Upper edge of the middle bucket; above it is far."
        }, check: { s in
            let t = s.detection.v1.durationAtAttenuationThresholds
            return t[0] < t[1] ? nil : "low must be below high"
        }, doc: "GAEN's durationAtAttenuationThresholds: time split into three attenuation buckets."),
        .choice("rule", \S.detection.v1.rule, doc: """
            `max_risk_score` (Immuni): notify when the highest total risk score reaches `notify_threshold`; \
            `weighted_minutes` (CWA v1): highest risk score ÷ `normalization_divisor` × Σ bucket weight × bucket minutes.
            """),
        .section("bucket_weights", Field.numbers(\S.detection.v1.attenuationBucketWeights, keys: [
            ("low", "Weight of minutes in the low-attenuation bucket."), ("middle", "Weight of minutes in the middle bucket."),
            ("high", "Weight of minutes in the high-attenuation bucket."),
        ], range: 0...10), doc: "Attenuation bucket weights of the `weighted_minutes` rule."),
        .number("normalization_divisor", \S.detection.v1.riskScoreNormalizationDivisor, range: 0.001...10_000,
                doc: "Risk score normalisation of the `weighted_minutes` rule (CWA: 25)."),
        .number("notify_threshold", \S.detection.v1.notifyThreshold, range: 0...1_000_000,
                doc: "Notify at this summary value or above (Immuni: risk score 20; CWA v1: 15 weighted minutes)."),
    ]

    static let reportTypes = ["confirmed_test", "confirmed_clinical_diagnosis", "self_report", "recursive"]

    static let gaenV2: [Field] = [
        .section("attenuation_thresholds_db", ints(["immediate", "near", "medium"], \S.detection.v2.base.attenuationBucketThresholds,
                                                   range: 0...255, unit: "dB") {
            "Upper edge (inclusive) of the \($0) bucket, by typical attenuation."
        }, check: { s in
            let t = s.detection.v2.base.attenuationBucketThresholds
            return t[0] < t[1] && t[1] < t[2] ? nil : "thresholds must increase strictly: immediate < near < medium"
        }, doc: "DailySummariesConfig attenuationBucketThresholdDb."),
        .section("attenuation_weights", weights(["immediate", "near", "medium", "other"], \S.detection.v2.base.attenuationBucketWeights,
                                                range: 0...2.5) { "Weight of scan seconds in the \($0) bucket." },
                 doc: "DailySummariesConfig attenuationBucketWeights (0–2.5)."),
        .section("infectiousness", [
            .integer("high_from_days_since_onset", \S.detection.v2.highFromDaysSinceOnset, range: -14...14, unit: "days",
                     doc: "First day (relative to symptom onset) of high infectiousness."),
            .integer("high_to_days_since_onset", \S.detection.v2.highToDaysSinceOnset, range: -14...14, unit: "days",
                     doc: "Last day of high infectiousness."),
            .choice("other_days", \S.detection.v2.otherDays,
                    doc: "Infectiousness of the other days within ±14 days of onset (beyond: none, the window is dropped)."),
            .choice("when_onset_missing", Infectiousness.self, doc: "Infectiousness of keys without days since onset.",
                    get: { Infectiousness(level: $0.detection.v2.base.infectiousnessWhenOnsetMissing) },
                    set: { $0.detection.v2.base.infectiousnessWhenOnsetMissing = $1.level }),
        ] + weights(["standard_weight", "high_weight"], \S.detection.v2.base.infectiousnessWeights, range: 0...2.5) {
            "Weight of \($0.dropLast(7)) infectiousness."
        }, check: { s in
            s.detection.v2.highFromDaysSinceOnset <= s.detection.v2.highToDaysSinceOnset ? nil
                : "high_from_days_since_onset must not exceed high_to_days_since_onset"
        }, doc: "DiagnosisKeysDataMapping (days since onset → infectiousness) and infectiousness weights."),
        .section("report_type_weights", weights(reportTypes, \S.detection.v2.base.reportTypeWeights, range: 0...2.5) {
            "Weight of windows from \($0.replacingOccurrences(of: "_", with: " ")) keys."
        }, doc: "DailySummariesConfig reportTypeWeights."),
        .integer("report_type_when_missing", \S.detection.v2.base.reportTypeWhenMissing, range: 1...4,
                 doc: "Report type assumed for keys without one (1 confirmed test … 4 recursive)."),
        .number("minimum_window_score", \S.detection.v2.base.minimumWindowScore, range: 0...1440, unit: "weighted minutes",
                doc: "Windows scoring below this are dropped."),
        .number("notify_weighted_minutes", \S.detection.v2.base.notifyWeightedMinutes, range: 0...1440, unit: "weighted minutes",
                doc: "Notify when one day's weighted minutes reach this (CWA: 15)."),
    ]
}
