import Detection
import Distribution
import EventEngine
import HealthBackend
import SimulationCore
import World

/// P6 phones beside GAEN on the same contacts (the `p6` block): they hear each other during
/// the contact phase, disclose when a case's GAEN upload is accepted, fetch disclosure files
/// and match them at the end of each day (after GAEN's detection).
package final class P6Stage: Stage {
    package let run: P6Run
    private let world: WorldStage
    private let backend: KeySubmissionStage
    private let distribution: DistributionStage
    private let detection: DetectionStage

    /// Nil when `p6.enabled` is false.
    package init?(_ run: RunContext, parameters: P6RunParameters, downloads distributionParameters: DistributionParameters, world: WorldStage, backend: KeySubmissionStage, distribution: DistributionStage,
          detection: DetectionStage) {
        guard parameters.enabled else { return nil }
        self.world = world
        self.backend = backend
        self.distribution = distribution
        self.detection = detection
        let regions = P6Regions(count: parameters.regions, householdOf: world.network.householdOf, households: world.network.householdCount,
                                owners: world.population.owners)
        let run = P6Run(parameters: parameters, distribution: distributionParameters, seed: run.seed, start: run.start, days: run.days,
                        phoneIsIOS: world.phoneIsIOS, regions: regions, threads: run.threads, owners: world.population.owners)
        self.run = run
        world.observeAppContacts { radio in run.contactObserver(radio: radio) }
        world.secondProtocolAdvertisers = { radio in run.dayPhones(radio: radio) }
    }

    package func endDay(_ day: SimulatedDay) {
        run.endDay(dayIndex: day.index, uploads: backend.pipeline.uploads, unavailablePhones: world.availability.appCannotRun,
                   groundTruth: world.groundTruth)
    }

    /// The `p6` summary section and its tables, scored against GAEN's truth of the same run.
    package func result() -> (summary: P6Summary, tables: [NamedTable]) {
        let report = run.finish(truth: detection.truth, gaen: detection.report.summary, distribution: distribution.report.summary,
                                uploads: backend.pipeline.uploads.count, gaenPayloadBytes: distribution.appPhonePackageBytes)
        return (report.summary, report.tables)
    }
}
