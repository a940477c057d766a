import EventEngine
import HealthBackend
import SimulationCore
import World

/// The CDN and every client's downloads: at the end of each day the day's packages reach the
/// CDN and every client fetches what is new at its own check times.
package final class DistributionStage: Stage {
    package let model: DistributionModel
    private let world: WorldStage
    private let backend: KeySubmissionStage
    /// Every package published so far, in publication order.
    package private(set) var publishedPackages: [PublishedPackage] = []
    /// What the app phones fetched today.
    package private(set) var downloadsToday: [PackageDownload] = []
    /// Package bytes the app phones fetched (P6 compares its disclosure files with them).
    package private(set) var appPhonePackageBytes: Int64 = 0

    package init(_ run: RunContext, parameters: DistributionParameters, world: WorldStage, backend: KeySubmissionStage) {
        self.world = world
        self.backend = backend
        model = DistributionModel(parameters: parameters, flavor: backend.pipeline.parameters.flavor.distributionFlavor,
                                  seed: run.seed, start: run.start,
                                  contactPhoneIsIOS: world.phoneIsIOS, threads: run.threads)
    }

    package func endDay(_ day: SimulatedDay) {
        let fresh = backend.pipeline.publisher.takeNewPackages()
        publishedPackages += fresh
        model.publish(fresh)
        downloadsToday = model.advance(until: day.end, unavailableContactPhones: world.availability.appCannotRun)
        appPhonePackageBytes += downloadsToday.reduce(0) { $0 + Int64(publishedPackages[$1.package].bytes) }
    }

    package static let dailyColumns = ["package_downloads"]

    package var dailyValues: [ResultTable.Cell] { [.integer(Int64(downloadsToday.count))] }

    /// Computed once: P6 reads it too.
    package private(set) lazy var report = model.results()

    package func result() -> DistributionResults { report }
}
