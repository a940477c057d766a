import EventEngine
import GAEN
import HealthBackend

extension ExposureDetection {
    /// Immuni asks the framework for exposure infos only when a summary's maximum risk score
    /// reaches its `exposure_info_minimum_risk_score` (20, gaen.md §3).
    package static let immuniExposureInfoMinimumRiskScore = 20
    /// Summaries the app keeps for an upload: 14 days (its cap of 84 is 14 days × 6 detections).
    package static let immuniSummaryRetentionDays: Int64 = 14

    /// The `exposure_detection_summaries` `phone` sends with an upload at `time`: one per detection
    /// run of the past 14 days that matched keys (GAEN v1 `ENExposureDetectionSummary`), exposures
    /// one per key scored by GAEN v1 with the run's v1 configuration, or Immuni's preset when the
    /// run scores with v2 (the Immuni app used the v1 API). Durations in seconds, per bucket
    /// capped at 30 minutes, as the framework reports them. Detections of `time`'s own day are
    /// not known yet when the pipeline calls this (detection runs after each day's events).
    package func immuniSummaries(phone: Int32, before time: SimTime) -> [ImmuniExposureSummary] {
        guard let all = windows[phone] else { return [] }
        let config: ExposureConfigurationV1
        if case .v1(let c) = parameters.model { config = c } else { config = .immuni }
        let from = time - Self.immuniSummaryRetentionDays * SimDuration.day
        let recent = all.filter { $0.detectedAt < time && $0.detectedAt >= from }
        return Dictionary(grouping: recent, by: \.detectedAt).sorted { $0.key < $1.key }.map { at, detected in
            summary(detected, at: at, config: config)
        }
    }

    private func summary(_ detected: [Window], at: SimTime, config: ExposureConfigurationV1) -> ImmuniExposureSummary {
        let keys = Self.byKey(detected)
        let detectionDay = SimClock.dayNumber(at)
        var bucketMinutes = [0, 0, 0]
        var infos: [ImmuniExposureInfo] = []
        var daysSinceLast = Int.max
        for ws in keys {
            let days = Int(detectionDay - startDayNumber - Int64(ws[0].dayIndex))
            let trl = ws[0].key.transmissionRiskLevel.map(Int.init) ?? config.transmissionRiskLevelWhenMissing
            let scored = config.score(KeyExposure(scans: ws.flatMap(\.scans), daysSinceExposure: days,
                                                  transmissionRiskLevel: Int32(trl)))
            for b in 0..<3 { bucketMinutes[b] += scored.attenuationDurations[b] }
            daysSinceLast = min(daysSinceLast, days)
            let exposureDay = (startDayNumber + Int64(ws[0].dayIndex)) * SimDuration.day
            infos.append(ImmuniExposureInfo(
                date: CivilCalendar.isoDateString(exposureDay), duration: min(30, scored.durationMinutes) * 60,
                attenuationValue: scored.attenuationValue, attenuationDurations: scored.attenuationDurations.map { $0 * 60 },
                transmissionRiskLevel: trl, totalRiskScore: scored.totalRiskScore))
        }
        let maximum = infos.map(\.totalRiskScore).max() ?? 0
        return ImmuniExposureSummary(
            date: CivilCalendar.isoDateString(at), matchedKeyCount: keys.count, daysSinceLastExposure: daysSinceLast,
            attenuationDurations: bucketMinutes.map { min(30, $0) * 60 }, maximumRiskScore: maximum,
            exposureInfo: maximum >= Self.immuniExposureInfoMinimumRiskScore ? infos : [])
    }
}
