import Detection
import Distribution
import EventEngine
import SimulationCore
import World

/// Immuni's privacy-preserving analytics. With `detections: simulated` it is fed each day's
/// completed index checks and notifications of the run; with `synthetic` its own detection
/// model runs over the whole period when the run ends (it needs nothing from the other stages
/// but the phones and the availability parameters).
package final class AnalyticsStage: Stage {
    private let run: RunContext
    private let parameters: AnalyticsParameters
    private let availability: AvailabilityParameters
    private let world: WorldStage
    private let distribution: DistributionStage
    private let detection: DetectionStage
    /// Only with `detections: simulated`.
    private let simulated: SimulatedDetections?

    /// Nil when `analytics.enabled` is false.
    package init?(_ run: RunContext, parameters: AnalyticsParameters, availability: AvailabilityParameters, world: WorldStage, distribution: DistributionStage, detection: DetectionStage) {
        guard parameters.enabled else { return nil }
        self.run = run
        self.parameters = parameters
        self.availability = availability
        self.world = world
        self.distribution = distribution
        self.detection = detection
        if parameters.detections == .simulated {
            simulated = SimulatedDetections(run, parameters: parameters, phoneOS: world.population.phoneOS)
            distribution.model.recordsCheckSessions = true
        } else {
            simulated = nil
        }
    }

    package func endDay(_ day: SimulatedDay) {
        simulated?.day(end: day.end, checks: distribution.model.checkSessions, detection: detection.detection,
                       availability: world.availability)
    }

    /// The `analytics` summary section and its tables.
    package func result() -> (summary: AnalyticsSummary, tables: [NamedTable]) {
        if let simulated { return simulated.finish() }
        return AnalyticsRun.finish(run, parameters: parameters, availability: availability, phoneOS: world.population.phoneOS)
    }
}
