@testable import Detection
@testable import Simulation
import Testing

@Suite struct RiskScoringTests {
    func scans(_ pairs: [(Int, Int)]) -> [ScoredScan] { pairs.map { ScoredScan(typicalAttenuation: $0.0, seconds: $0.1) } }

    @Test func gaenV1LevelBuckets() {
        typealias C = ExposureConfigurationV1
        #expect([74, 73, 64, 63, 52, 51, 34, 33, 28, 27, 16, 15, 11, 10, 0].map(C.attenuationLevel) == [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7])
        #expect([0, 1, 5, 6, 10, 15, 16, 30, 31, 90].map { C.durationLevel(minutes: $0) } == [0, 1, 1, 2, 2, 3, 4, 6, 7, 7])
        #expect([20, 14, 13, 12, 9, 4, 2, 1, 0].map(C.daysLevel) == [0, 0, 1, 1, 3, 5, 6, 7, 7])
        #expect([0, 149, 150, 899, 1200].map { C.fiveMinuteSteps(seconds: $0) } == [0, 0, 5, 15, 20])
    }

    @Test func immuniNeedsMoreThan15MinutesBelow74dB() {
        let c = ExposureConfigurationV1.immuni
        // 4 scans × 300 s at 60 dB: 20 min → duration score 5, attenuation score 5: 25 ≥ 20.
        let x = c.score(KeyExposure(scans: scans([(60, 300), (60, 300), (60, 300), (60, 300)]), daysSinceExposure: 3))
        #expect(x.totalRiskScore == 25 && x.durationMinutes == 20 && x.attenuationValue == 60)
        #expect(x.attenuationDurations == [0, 20, 0])
        #expect(RiskModel.v1(c).evaluateDay([KeyExposure(scans: scans([(60, 300), (60, 300), (60, 300), (60, 300)]), daysSinceExposure: 3)]).notify)
        // 15 minutes: duration score 0.
        #expect(c.score(KeyExposure(scans: scans([(60, 300), (60, 300), (60, 300)]), daysSinceExposure: 3)).totalRiskScore == 0)
        // Weighted mean (70·600 + 80·600)/1200 = 75 dB > 73: attenuation score 0.
        #expect(c.score(KeyExposure(scans: scans([(70, 600), (80, 600)]), daysSinceExposure: 1)).totalRiskScore == 0)
        #expect(!RiskModel.v1(c).evaluateDay([KeyExposure(scans: scans([(70, 600), (80, 600)]), daysSinceExposure: 1)]).notify)
    }

    @Test func cwaV1CombinesRiskScoreAndWeightedMinutes() {
        let c = ExposureConfigurationV1.cwaV1
        let e = KeyExposure(scans: scans([(50, 300), (50, 300), (60, 300), (60, 300)]), daysSinceExposure: 1, transmissionRiskLevel: 6)
        // Mean 55 dB → score 1; days 5; 20 min → 1; TRL 6 → 6: 30. Buckets 10/10/0 min.
        let x = c.score(e)
        #expect(x.totalRiskScore == 30 && x.attenuationDurations == [10, 10, 0])
        // 30/25 × (1·10 + 0.5·10) = 18 ≥ 15.
        let day = RiskModel.v1(c).evaluateDay([e])
        #expect(abs(day.value - 18) < 1e-12 && day.notify)
        // TRL 3: 15/25 × 15 = 9 < 15.
        var low = e
        low.transmissionRiskLevel = 3
        #expect(abs(RiskModel.v1(c).evaluateDay([low]).value - 9) < 1e-12)
        // TRL 1: 5 < minimum risk score 11 → 0.
        low.transmissionRiskLevel = 1
        #expect(c.score(low).totalRiskScore == 0 && !RiskModel.v1(c).evaluateDay([low]).notify)
    }

    @Test func cwaV2WeightedMinutesPerDay() {
        let c = DailySummariesConfigV2.cwaV2
        // 600 s at 50 dB (w 1) + 600 s at 60 (w 0.5) + 600 s at 70 (w 0) = 900 weighted s = 15 min.
        let w = KeyExposure(scans: scans([(50, 600), (60, 600), (70, 600)]), daysSinceExposure: 2)
        #expect(c.weightedSeconds(w.scans) == 900)
        let day = RiskModel.v2(c).evaluateDay([w])
        #expect(day.value == 15 && day.notify)
        // Two windows of one day add up: 7.5 + 7.5 minutes.
        let half = KeyExposure(scans: scans([(55, 450)]), daysSinceExposure: 2)
        #expect(RiskModel.v2(c).evaluateDay([half, half]).value == 15)
        #expect(!RiskModel.v2(c).evaluateDay([half]).notify)
        // Days since onset outside ±14: infectiousness none, window dropped.
        var late = w
        late.daysSinceOnset = 20
        #expect(c.windowScore(late) == nil && RiskModel.v2(c).evaluateDay([late]).value == 0)
        #expect(c.infectiousness(daysSinceOnset: -2) == 2 && c.infectiousness(daysSinceOnset: -3) == 1 && c.infectiousness(daysSinceOnset: nil) == 1)
        // Report-type weight scales the window.
        var weighted = c
        weighted.reportTypeWeights = [1, 1, 0.5, 1]
        var selfReport = w
        selfReport.reportType = 3
        #expect(weighted.dailyWeightedMinutes([selfReport]) == 7.5)
        // Minimum window score (minutes) drops small windows.
        weighted.minimumWindowScore = 10
        #expect(weighted.dailyWeightedMinutes([half, w]) == 15)
    }

    @Test func presetDefaultsFromTheSeeds() {
        let i = ExposureConfigurationV1.immuni, v1 = ExposureConfigurationV1.cwaV1, v2 = DailySummariesConfigV2.cwaV2
        #expect(i.durationAtAttenuationThresholds == [50, 70] && i.notifyThreshold == 20 && i.minimumRiskScore == 1)
        #expect(i.attenuationLevelValues == [0, 5, 5, 5, 5, 5, 5, 5] && i.durationLevelValues == [0, 0, 0, 0, 5, 5, 5, 5])
        #expect(v1.minimumRiskScore == 11 && v1.durationAtAttenuationThresholds == [55, 63])
        #expect(v1.attenuationBucketWeights == [1.0, 0.5, 0.0] && v1.riskScoreNormalizationDivisor == 25 && v1.notifyThreshold == 15)
        #expect(v2.attenuationBucketThresholds == [55, 63, 73] && v2.attenuationBucketWeights == [1, 0.5, 0, 0])
        #expect(v2.notifyWeightedMinutes == 15 && v2.minimumWindowScore == 0 && v2.infectiousnessByDaysSinceOnset.count == 29)
        #expect(DetectionParameters.default.preset == .cwaV2 && DetectionParameters.default.model == .v2(.cwaV2))
        #expect(Matcher.clockDriftIntervals == 12)
    }
}
