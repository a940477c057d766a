import EventEngine

/// Immuni's privacy-preserving analytics. With `detections: simulated` it is fed each day's
/// completed index checks and notifications of the run; with `synthetic` its own detection
/// model runs over the whole period when the run ends (it needs nothing from the other stages
/// but the phones and the availability parameters).
final class AnalyticsStage: Stage {
    private let config: SimulationConfig
    private let world: WorldStage
    private let distribution: DistributionStage
    private let detection: DetectionStage
    /// Only with `detections: simulated`.
    private let simulated: SimulatedDetections?

    /// Nil when `analytics.enabled` is false.
    init?(config: SimulationConfig, world: WorldStage, distribution: DistributionStage, detection: DetectionStage) {
        guard config.analytics.enabled else { return nil }
        self.config = config
        self.world = world
        self.distribution = distribution
        self.detection = detection
        if config.analytics.detections == .simulated {
            simulated = SimulatedDetections(config: config, phoneOS: world.population.phoneOS)
            distribution.model.recordsCheckSessions = true
        } else {
            simulated = nil
        }
    }

    func endDay(_ day: SimulatedDay) {
        simulated?.day(end: day.end, checks: distribution.model.checkSessions, detection: detection.detection,
                       availability: world.availability)
    }

    /// The `analytics` summary section and its tables.
    func result() -> (summary: ReportValue, tables: [NamedTable]) {
        if let simulated { return simulated.finish() }
        return AnalyticsRun.finish(config: config, phoneOS: world.population.phoneOS)
    }
}
