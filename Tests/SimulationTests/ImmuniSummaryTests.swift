@testable import Detection
import EventEngine
import Foundation
import GAEN
@testable import HealthBackend
@testable import Simulation
import Testing

/// Immuni uploads carry the uploader's own exposure detection summaries from the run.
@Suite struct ImmuniSummaryTests {
    @Test func summariesAreThePhonesDetectionsScoredByGAENv1() throws {
        let (sim, _) = try CompleteRunTests.run(.immuni)
        let detection = sim.detection
        let end = sim.config.start + Int64(sim.config.days) * SimDuration.day
        var checkedPhones = 0, withInfos = 0
        for (phone, windows) in detection.windows.sorted(by: { $0.key < $1.key }) {
            let summaries = detection.immuniSummaries(phone: phone, before: end)
            let detections = Dictionary(grouping: windows, by: \.detectedAt)
            #expect(summaries.count == detections.count)
            #expect(summaries.map(\.date) == detections.keys.sorted().map { CivilCalendar.isoDateString($0) })
            for (summary, at) in zip(summaries, detections.keys.sorted()) {
                let keys = Set(detections[at]!.map(\.key.temporaryExposureKey.keyData))
                #expect(summary.matchedKeyCount == keys.count)
                #expect(summary.daysSinceLastExposure >= 0 && summary.attenuationDurations.allSatisfy { (0...1800).contains($0) })
                #expect(summary.exposureInfo.isEmpty == (summary.maximumRiskScore < 20))
                if !summary.exposureInfo.isEmpty {
                    withInfos += 1
                    #expect(summary.exposureInfo.count == keys.count)
                    #expect(summary.exposureInfo.map(\.totalRiskScore).max() == summary.maximumRiskScore)
                }
            }
            // Nothing detected at or after the upload time is sent.
            if let first = detections.keys.min() {
                #expect(detection.immuniSummaries(phone: phone, before: first).isEmpty)
            }
            checkedPhones += 1
        }
        #expect(checkedPhones > 10 && withInfos > 0)
        // The pipeline encodes what the run's detection holds for the uploader.
        let phone = try #require(detection.windows.keys.min())
        #expect(sim.pipeline.exposureSummaries?(phone, end) == detection.immuniSummaries(phone: phone, before: end))
    }

    /// One detection scored by hand: a 20-minute exposure at 45 dB to a key of TRL 6, two days old.
    @Test func oneExposureByHand() throws {
        let tek = try TemporaryExposureKey(keyData: Bytes16(word0: 1, word1: 2), rollingStartIntervalNumber: ENIntervalNumber(2_668_032))
        let start = SimTime(2_668_032) * 600
        let detection = ExposureDetection(parameters: DetectionParameters(preset: .immuni), start: start,
                                          appPhoneOwners: [0, 1], threads: 1)
        let at = start + 2 * SimDuration.day + 3_600
        detection.windows[1] = [.init(dayIndex: 0, key: DiagnosisKey(tek, transmissionRiskLevel: 6), uploader: 0,
                                      detectedAt: at, transmitPower: -20, scans: [ScoredScan(typicalAttenuation: 45, seconds: 1_200)])]
        let s = try #require(detection.immuniSummaries(phone: 1, before: at + 1).first)
        #expect(s.date == CivilCalendar.isoDateString(at) && s.matchedKeyCount == 1 && s.daysSinceLastExposure == 2)
        // Thresholds [50, 70]: 20 minutes below 50 dB.
        #expect(s.attenuationDurations == [1_200, 0, 0])
        // Attenuation 45 dB scores 5, 20 minutes scores 5, days and TRL 1: 25 ≥ 20, so infos are sent.
        #expect(s.maximumRiskScore == 25)
        #expect(s.exposureInfo == [ImmuniExposureInfo(date: CivilCalendar.isoDateString(start), duration: 1_200, attenuationValue: 45,
                                                                    attenuationDurations: [1_200, 0, 0], transmissionRiskLevel: 6, totalRiskScore: 25)])
    }
}
