import GAEN

/// The scan instances one matched RPI contributed: GAEN's ExposureWindow cut at the RPI
/// (an RPI lives 10–20 minutes, within GAEN's 30-minute window limit).
public struct ScoredScan: Sendable, Equatable {
    public var typicalAttenuation: Int
    public var seconds: Int
    public init(typicalAttenuation: Int, seconds: Int) {
        self.typicalAttenuation = typicalAttenuation
        self.seconds = seconds
    }
}

/// What the scoring functions know about one exposure to one key on one UTC day.
public struct KeyExposure: Sendable, Equatable {
    public var scans: [ScoredScan]
    /// Whole days between the exposure day and the detection day.
    public var daysSinceExposure: Int
    public var transmissionRiskLevel: Int32?
    public var reportType: Int?
    public var daysSinceOnset: Int32?

    public init(scans: [ScoredScan], daysSinceExposure: Int, transmissionRiskLevel: Int32? = nil, reportType: Int? = nil, daysSinceOnset: Int32? = nil) {
        self.scans = scans
        self.daysSinceExposure = daysSinceExposure
        self.transmissionRiskLevel = transmissionRiskLevel
        self.reportType = reportType
        self.daysSinceOnset = daysSinceOnset
    }

    public var seconds: Int { scans.reduce(0) { $0 + $1.seconds } }
}

/// GAEN v1 `ExposureConfiguration` and the app rule that turns a summary into a notification.
public struct ExposureConfigurationV1: Sendable, Equatable {
    /// How a summary becomes a notification.
    public enum Rule: String, Sendable, CaseIterable {
        /// Immuni: maximum total risk score ≥ `notifyThreshold`.
        case maximumRiskScore = "max_risk_score"
        /// CWA v1: maximum risk score / divisor × Σ weight × minutes per attenuation bucket ≥ `notifyThreshold`.
        case weightedMinutes = "weighted_minutes"
    }

    /// Each 8 values 0…8, GAEN's level order (index 0 = the lowest-risk bucket).
    public var attenuationLevelValues: [Int]
    public var daysSinceLastExposureLevelValues: [Int]
    public var durationLevelValues: [Int]
    public var transmissionRiskLevelValues: [Int]
    /// Level assumed for keys without one (1…8; 0 scores 1 as GAEN does for an invalid level).
    public var transmissionRiskLevelWhenMissing: Int
    /// Scores below this count as 0 (GAEN: 1…4096).
    public var minimumRiskScore: Int
    /// Two thresholds (dB) splitting time into three attenuation buckets.
    public var durationAtAttenuationThresholds: [Int]
    public var rule: Rule
    /// Per attenuation bucket (low, mid, high attenuation), for `weightedMinutes`.
    public var attenuationBucketWeights: [Double]
    public var riskScoreNormalizationDivisor: Double
    public var notifyThreshold: Double

    public init(attenuationLevelValues: [Int], daysSinceLastExposureLevelValues: [Int], durationLevelValues: [Int],
                transmissionRiskLevelValues: [Int], transmissionRiskLevelWhenMissing: Int, minimumRiskScore: Int, durationAtAttenuationThresholds: [Int],
                rule: Rule, attenuationBucketWeights: [Double], riskScoreNormalizationDivisor: Double, notifyThreshold: Double) {
        self.attenuationLevelValues = attenuationLevelValues
        self.daysSinceLastExposureLevelValues = daysSinceLastExposureLevelValues
        self.durationLevelValues = durationLevelValues
        self.transmissionRiskLevelValues = transmissionRiskLevelValues
        self.transmissionRiskLevelWhenMissing = transmissionRiskLevelWhenMissing
        self.minimumRiskScore = minimumRiskScore
        self.durationAtAttenuationThresholds = durationAtAttenuationThresholds
        self.rule = rule
        self.attenuationBucketWeights = attenuationBucketWeights
        self.riskScoreNormalizationDivisor = riskScoreNormalizationDivisor
        self.notifyThreshold = notifyThreshold
    }

    /// GAEN's attenuation level: [0] > 73 dB … [7] ≤ 10 dB.
    package static func attenuationLevel(_ a: Int) -> Int {
        switch a {
        case 74...: 0
        case 64...73: 1
        case 52...63: 2
        case 34...51: 3
        case 28...33: 4
        case 16...27: 5
        case 11...15: 6
        default: 7
        }
    }

    /// [0] ≥ 14 days … [7] ≥ 0 days.
    package static func daysLevel(_ d: Int) -> Int {
        switch d {
        case 14...: 0
        case 12...13: 1
        case 10...11: 2
        case 8...9: 3
        case 6...7: 4
        case 4...5: 5
        case 2...3: 6
        default: 7
        }
    }

    /// [0] = 0 minutes, [1] ≤ 5 … [6] ≤ 30, [7] > 30.
    package static func durationLevel(minutes: Int) -> Int {
        minutes <= 0 ? 0 : min(7, (minutes + 4) / 5)
    }

    /// Seconds in 5-minute steps (nearest), as GAEN v1 reports durations.
    package static func fiveMinuteSteps(seconds: Int) -> Int { (seconds + 150) / 300 * 5 }

    /// One key's exposure as GAEN v1 scores it.
    public struct Exposure: Sendable, Equatable {
        /// Duration-weighted mean typical attenuation (dB).
        public var attenuationValue: Int
        /// Minutes below, between and above the two thresholds, 5-minute steps, capped at 30.
        public var attenuationDurations: [Int]
        public var durationMinutes: Int
        public var totalRiskScore: Int
    }

    public func score(_ e: KeyExposure) -> Exposure {
        let seconds = e.seconds
        let weighted = e.scans.reduce(0) { $0 + $1.typicalAttenuation * $1.seconds }
        let attenuation = seconds > 0 ? Int((Double(weighted) / Double(seconds)).rounded()) : 0
        var bucketSeconds = [0, 0, 0]
        for s in e.scans {
            let b = s.typicalAttenuation <= durationAtAttenuationThresholds[0] ? 0
                : s.typicalAttenuation <= durationAtAttenuationThresholds[1] ? 1 : 2
            bucketSeconds[b] += s.seconds
        }
        let minutes = Self.fiveMinuteSteps(seconds: seconds)
        // TRL 1…8 index 0…7; an invalid level scores 1 as in GAEN.
        let trl = Int(e.transmissionRiskLevel ?? Int32(transmissionRiskLevelWhenMissing))
        let trlScore = (1...8).contains(trl) ? transmissionRiskLevelValues[trl - 1] : 1
        var risk = attenuationLevelValues[Self.attenuationLevel(attenuation)]
            * daysSinceLastExposureLevelValues[Self.daysLevel(e.daysSinceExposure)]
            * durationLevelValues[Self.durationLevel(minutes: minutes)] * trlScore
        if risk < minimumRiskScore { risk = 0 }
        return Exposure(attenuationValue: attenuation,
                        attenuationDurations: bucketSeconds.map { min(30, Self.fiveMinuteSteps(seconds: $0)) },
                        durationMinutes: minutes, totalRiskScore: risk)
    }

    /// The summary value a day's exposures are compared with `notifyThreshold`:
    /// the maximum risk score, or CWA v1's normalised weighted minutes.
    public func summaryValue(_ exposures: [Exposure]) -> Double {
        let maxRisk = exposures.map(\.totalRiskScore).max() ?? 0
        switch rule {
        case .maximumRiskScore:
            return Double(maxRisk)
        case .weightedMinutes:
            if maxRisk == 0 { return 0 }
            var minutes = [0, 0, 0]
            for x in exposures where x.totalRiskScore > 0 { for b in 0..<3 { minutes[b] += x.attenuationDurations[b] } }
            let weighted = (0..<3).reduce(0.0) { $0 + attenuationBucketWeights[$1] * Double(min(30, minutes[$1])) }
            return Double(maxRisk) / riskScoreNormalizationDivisor * weighted
        }
    }
}

/// GAEN v2: ExposureWindows scored by DailySummariesConfig, then the app's threshold on a
/// day's weighted minutes.
public struct DailySummariesConfigV2: Sendable, Equatable {
    /// Three strictly increasing thresholds (immediate, near, medium); bucket by typical attenuation.
    public var attenuationBucketThresholds: [Int]
    /// Four weights 0…2.5: immediate (≤ t0), near, medium, other (> t2).
    public var attenuationBucketWeights: [Double]
    /// Infectiousness for days since onset −14…+14 (29 values: 0 none, 1 standard, 2 high).
    public var infectiousnessByDaysSinceOnset: [Int]
    public var infectiousnessWhenOnsetMissing: Int
    /// Weights of standard and high infectiousness.
    public var infectiousnessWeights: [Double]
    /// Weights of report types 1…4 (confirmed test, clinical, self report, recursive).
    public var reportTypeWeights: [Double]
    public var reportTypeWhenMissing: Int
    /// Windows scoring below this are dropped.
    public var minimumWindowScore: Double
    /// A day with this many weighted minutes or more notifies.
    public var notifyWeightedMinutes: Double

    public init(attenuationBucketThresholds: [Int], attenuationBucketWeights: [Double], infectiousnessByDaysSinceOnset: [Int],
                infectiousnessWhenOnsetMissing: Int, infectiousnessWeights: [Double], reportTypeWeights: [Double],
                reportTypeWhenMissing: Int, minimumWindowScore: Double, notifyWeightedMinutes: Double) {
        self.attenuationBucketThresholds = attenuationBucketThresholds
        self.attenuationBucketWeights = attenuationBucketWeights
        self.infectiousnessByDaysSinceOnset = infectiousnessByDaysSinceOnset
        self.infectiousnessWhenOnsetMissing = infectiousnessWhenOnsetMissing
        self.infectiousnessWeights = infectiousnessWeights
        self.reportTypeWeights = reportTypeWeights
        self.reportTypeWhenMissing = reportTypeWhenMissing
        self.minimumWindowScore = minimumWindowScore
        self.notifyWeightedMinutes = notifyWeightedMinutes
    }

    public func infectiousness(daysSinceOnset: Int32?) -> Int {
        guard let d = daysSinceOnset else { return infectiousnessWhenOnsetMissing }
        let range = DiagnosisKey.daysSinceOnsetRange
        guard range.contains(d) else { return 0 }
        return infectiousnessByDaysSinceOnset[Int(d - range.lowerBound)]
    }

    /// Weighted seconds of one window: Σ seconds × bucket weight.
    public func weightedSeconds(_ scans: [ScoredScan]) -> Double {
        scans.reduce(0.0) { sum, s in
            let t = attenuationBucketThresholds
            let b = s.typicalAttenuation <= t[0] ? 0 : s.typicalAttenuation <= t[1] ? 1 : s.typicalAttenuation <= t[2] ? 2 : 3
            return sum + Double(s.seconds) * attenuationBucketWeights[b]
        }
    }

    /// Window score in weighted seconds (report type × infectiousness × weighted duration); nil when dropped.
    public func windowScore(_ e: KeyExposure) -> Double? {
        let inf = infectiousness(daysSinceOnset: e.daysSinceOnset)
        if inf == 0 { return nil }
        let rt = e.reportType.flatMap { (1...4).contains($0) ? $0 : nil } ?? reportTypeWhenMissing
        guard (1...4).contains(rt) else { return nil }
        let score = reportTypeWeights[rt - 1] * infectiousnessWeights[inf - 1] * weightedSeconds(e.scans)
        return score >= minimumWindowScore * 60 ? score : nil
    }

    /// Weighted minutes of one day's windows (the daily summary's sum).
    public func dailyWeightedMinutes(_ windows: [KeyExposure]) -> Double {
        windows.reduce(0.0) { $0 + (windowScore($1) ?? 0) } / 60
    }
}

/// The risk model an app uses, from the `app.detection` block.
public enum RiskModel: Sendable, Equatable {
    case v1(ExposureConfigurationV1)
    case v2(DailySummariesConfigV2)

    /// The value compared with the threshold for one phone's exposures of one UTC day, and
    /// whether it notifies. Pure.
    public func evaluateDay(_ exposures: [KeyExposure]) -> (value: Double, notify: Bool) {
        switch self {
        case .v1(let c):
            let v = c.summaryValue(exposures.map(c.score))
            return (v, v > 0 && v >= c.notifyThreshold)
        case .v2(let c):
            let v = c.dailyWeightedMinutes(exposures)
            return (v, v > 0 && v >= c.notifyWeightedMinutes)
        }
    }
}
