import Detection
import Distribution
import EventEngine
import HealthBackend
import P6Phones
import World

/// What tests and benchmarks look at inside a run, read from its stages.
extension Simulation {
    /// Every phone's encounters of the last 14 days.
    public var encounters: EncounterStore { world.encounters }
    /// Ground truth of the days within the retention window.
    public var groundTruth: [GroundTruthDay] { world.groundTruth }
    /// Close contacts of every day of the run.
    package var closeContactHistory: [GroundTruthDay] { Array(world.closeContactHistory.days) }
    package var fleet: PhoneFleet { world.fleet }

    /// What the run's main stores hold now, in bytes (the memory report of `ensim bench population`).
    public var storeBytes: [(store: String, bytes: Int)] {
        [("encounters", world.encounters.memoryBytes),
         ("encounters_on_disk", world.encounters.diskBytes),
         ("close_contacts_in_memory", world.closeContactHistory.memoryBytes),
         ("close_contacts_on_disk", Int(world.closeContactHistory.diskBytes)),
         ("ground_truth_all_pairs", world.groundTruth.reduce(0) { $0 + $1.bytes }),
         ("keys", world.fleet.bytes),
         ("contact_network", world.network.bytes),
         ("population", world.population.bytes),
         ("distribution_clients", distributionStage.model.clientCount * DistributionModel.bytesPerClient)]
            + (epidemic?.tracingStoreBytes.map { [("manual_tracing_contacts", $0)] } ?? [])
    }
    /// Person index of each app phone (PhoneFleet order): what detection needs to map phones to ground truth.
    public var appPhoneOwners: [Int32] { world.fleet.owners }

    package var pipeline: KeySubmissionPipeline { keySubmission.pipeline }
    /// Positive results delivered so far (ground truth for detection), in delivery order.
    public var positiveCases: [PositiveCase] { keySubmission.pipeline.positiveCases }
    /// Packages the backend published since the last call, in publication order.
    public func takeNewPackages() -> [PublishedPackage] { keySubmission.pipeline.publisher.takeNewPackages() }
    /// The public key that verifies every published export (PEM).
    public var exportVerificationKeyPEM: String { KeyPublisher.signingKey(seed: config.seed).verificationKey.pemRepresentation }

    package var distribution: DistributionModel { distributionStage.model }
    /// Every package published so far, in publication order.
    public var publishedPackages: [PublishedPackage] { Array(distributionStage.publishedPackages) }
    package var detection: ExposureDetection { detectionStage.detection }
    /// P6 phones beside GAEN (nil when the `p6` block is off).
    package var p6: P6Run? { p6Stage?.run }

    /// The finished run as detection sees it.
    public var detectionWorld: DetectionStudy.World {
        DetectionStudy.World(simulationSeed: config.seed, start: config.start, days: config.days, appPhoneOwners: fleet.owners,
                             encounters: encounters, groundTruth: groundTruth)
    }

    /// A detection for this run's phones, to be called once per day after the day's downloads.
    public func makeExposureDetection(_ parameters: DetectionParameters) -> ExposureDetection {
        ExposureDetection(parameters: parameters, start: config.start, appPhoneOwners: world.fleet.owners, threads: config.threads)
    }
}
