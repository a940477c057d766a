import Detection
import Distribution
import EventEngine
import SimulationCore
import World

/// Immuni's privacy-preserving analytics. With `detections: simulated` it is fed each day's
/// completed index checks and notifications of the run; with `synthetic` its own detection
/// source feeds it day by day, on the days the run's phones can run the app.
package final class AnalyticsStage: Stage {
    private let world: WorldStage
    private let distribution: DistributionStage
    private let detection: DetectionStage
    /// Where the detections come from (`analytics.detections`).
    private enum Source {
        case simulated(SimulatedDetections)
        case synthetic(SyntheticAnalytics)
    }
    private let source: Source

    /// Nil when `analytics.enabled` is false.
    package init?(_ run: RunContext, parameters: AnalyticsParameters, world: WorldStage, distribution: DistributionStage,
                  detection: DetectionStage) {
        guard parameters.enabled else { return nil }
        self.world = world
        self.distribution = distribution
        self.detection = detection
        if parameters.detections == .simulated {
            source = .simulated(SimulatedDetections(run, parameters: parameters, phoneOS: world.population.phoneOS))
            distribution.model.recordsCheckSessions = true
        } else {
            source = .synthetic(SyntheticAnalytics(run, parameters: parameters, phoneOS: world.population.phoneOS))
        }
    }

    package func endDay(_ day: SimulatedDay) {
        switch source {
        case .simulated(let s):
            // With a detection schedule the app detects at its scheduled runs, not at every check.
            let d = detection.detection
            let runs = d.parameters.schedule.isActive ? d.scheduled.lastRuns : distribution.model.checkSessions
            s.day(end: day.end, checks: runs, detection: d, availability: world.availability)
        case .synthetic(let s):
            s.day(day, availability: world.availability)
        }
    }

    /// The `analytics` summary section and its tables.
    package func result() -> (summary: AnalyticsSummary, tables: [NamedTable]) {
        switch source {
        case .simulated(let s): return s.finish()
        case .synthetic(let s): return s.finish()
        }
    }
}
