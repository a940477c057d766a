import Distribution
import EventEngine
import HealthBackend
import SimulationCore
import World

/// Exposure detection on every app phone: at the end of each day each phone matches what it
/// fetched against what it heard before the download. Scored at the end against every day's
/// close contacts.
package final class DetectionStage: Stage {
    package let detection: ExposureDetection
    private let world: WorldStage
    private let backend: KeySubmissionStage
    private let distribution: DistributionStage

    package init(_ run: RunContext, parameters: DetectionParameters, world: WorldStage, backend: KeySubmissionStage, distribution: DistributionStage) {
        self.world = world
        self.backend = backend
        self.distribution = distribution
        detection = ExposureDetection(parameters: parameters, start: run.start, appPhoneOwners: world.fleet.owners,
                                      threads: run.threads, appPhoneIsIOS: world.phoneIsIOS)
        detection.clockOffsets = world.fleet.clockOffsets
        // A detection schedule runs detection at checks that fetched nothing new too.
        if parameters.schedule.isActive { distribution.model.recordsCheckSessions = true }
        // Immuni uploads carry the uploader's own detection summaries.
        let detection = self.detection
        backend.pipeline.exposureSummaries = { phone, time in detection.immuniSummaries(phone: phone, before: time) }
    }

    package func endDay(_ day: SimulatedDay) throws {
        try detection.process(dayIndex: day.index, downloads: distribution.downloadsToday,
                              checks: detection.parameters.schedule.isActive ? distribution.model.checkSessions : [],
                              packages: distribution.publishedPackages, encounters: world.encounters)
        distribution.releaseDownloadsToday()
    }

    package static let dailyColumns = ["phones_notified"]

    package var dailyValues: [ResultTable.Cell] { [.integer(Int64(detection.notifications.count))] }

    /// Who should have been notified (computed once: P6 is scored against the same truth).
    package private(set) lazy var truth = detection.truth(groundTruth: world.closeContactHistory.days, cases: backend.pipeline.positiveCases)

    package private(set) lazy var report = detection.finish(truth: truth, cases: backend.pipeline.positiveCases)

    package func result() -> DetectionReport { report }
}
