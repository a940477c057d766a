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
    private let threads: Int
    /// Packages handed to the CDN so far.
    private var handedOn = 0
    /// Every package handed to the CDN so far, in publication order (the backend's list, not a copy:
    /// a year of hourly packages is ~9,000 records).
    package var publishedPackages: ArraySlice<PublishedPackage> { backend.pipeline.publisher.published[..<handedOn] }
    /// What the app phones fetched today.
    package private(set) var downloadsToday: [PackageDownload] = []
    private var downloadCountToday = 0
    /// Package bytes the app phones fetched (P6 compares its disclosure files with them).
    package private(set) var appPhonePackageBytes: Int64 = 0

    /// - Parameter streams: where distribution_minutes.csv goes as the run goes (nil: memory).
    package init(_ run: RunContext, parameters: DistributionParameters, world: WorldStage, backend: KeySubmissionStage,
                 streams: (any TableStreams)? = nil) {
        self.world = world
        self.backend = backend
        threads = run.threads
        model = DistributionModel(parameters: parameters, flavor: backend.pipeline.parameters.flavor.distributionFlavor,
                                  seed: run.seed, start: run.start,
                                  contactPhoneIsIOS: world.phoneIsIOS, threads: run.threads)
        model.reserve(days: run.days)
        if parameters.writesMinutes, let streams {
            model.minuteStream = streams.open("distribution_minutes.csv", columns: DistributionModel.minuteColumns(parameters))
        }
        if model.origin == nil, let streams {
            model.hourStream = streams.open("distribution_hourly.csv", columns: model.hourColumns)
        }
    }

    package func endDay(_ day: SimulatedDay) {
        let fresh = backend.pipeline.publisher.takeNewPackages()
        handedOn += fresh.count
        model.publish(fresh)
        downloadsToday = model.advance(until: day.end, unavailableContactPhones: world.availability.appCannotRun, order: .phone)
        downloadCountToday = downloadsToday.count
        appPhonePackageBytes += Self.bytes(of: downloadsToday, packages: publishedPackages, threads: threads)
    }

    /// The package bytes of `downloads`, summed in parts on up to `threads` threads.
    private static func bytes(of downloads: [PackageDownload], packages: ArraySlice<PublishedPackage>, threads: Int) -> Int64 {
        let sizes = packages.map { Int64($0.bytes) }
        let parts = ShardLayout(count: downloads.count, threads: threads, shardsPerThread: 2)
        var sums = [Int64](repeating: 0, count: parts.shards)
        downloads.withUnsafeBufferPointer { d in
            sizes.withUnsafeBufferPointer { z in
                sums.withUnsafeMutableBufferPointer { buffer in
                    let downloads = SharedReadBuffer(base: d), sizes = SharedReadBuffer(base: z), out = SharedBuffer(base: buffer)
                    parts.forEach(threads: threads) { range in
                        var sum: Int64 = 0
                        for i in range { sum += sizes.base[downloads.base[i].package] }
                        out.base[parts.shard(of: range)] = sum
                    }
                }
            }
        }
        return sums.reduce(0, +)
    }

    package static let dailyColumns = ["package_downloads"]

    package var dailyValues: [ResultTable.Cell] { [.integer(Int64(downloadCountToday))] }

    /// Frees the day's downloads once detection has matched them: at national scale they are tens
    /// to hundreds of megabytes that would otherwise stay through the next day's contacts.
    /// (Handing glibc's free pages back each day as well, `malloc_trim`, cost 160 k page faults
    /// of 430 k at 100 k × 28 to save 3% of that run's peak, 0.6% of 1 M's and none of 10 M's.)
    package func releaseDownloadsToday() {
        downloadsToday = []
    }

    /// Computed once: P6 reads it too.
    package private(set) lazy var report = model.results()

    package func result() -> DistributionResults { report }
}
