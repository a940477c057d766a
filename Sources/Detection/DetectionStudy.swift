import EventEngine
import GAEN
import GSL
import HealthBackend
import World

/// Detection on a finished run with index cases drawn directly (GSL stream per app phone)
/// instead of the health and backend pipeline: every index case uploads all its keys at
/// the end, one package, every phone downloads it. Used by `ensim regress` and tests to
/// score a risk configuration against ground truth on the same encounters.
public struct DetectionStudy: Sendable {
    public var indexShare: Double
    public var seed: UInt64

    public static let defaultIndexShare = 0.02

    public init(indexShare: Double = DetectionStudy.defaultIndexShare, seed: UInt64) {
        self.indexShare = indexShare
        self.seed = seed
    }

    /// What detection reads from a finished simulation.
    public struct World: Sendable {
        public let simulationSeed: UInt64
        public let start: SimTime
        public let days: Int
        public let appPhoneOwners: [Int32]
        public let encounters: EncounterStore
        public let groundTruth: [GroundTruthDay]

        package init(simulationSeed: UInt64, start: SimTime, days: Int, appPhoneOwners: [Int32], encounters: EncounterStore,
                     groundTruth: [GroundTruthDay]) {
            self.simulationSeed = simulationSeed
            self.start = start
            self.days = days
            self.appPhoneOwners = appPhoneOwners
            self.encounters = encounters
            self.groundTruth = groundTruth
        }
    }

    /// Index cases (as phones) and the one package holding their keys.
    public func publish(_ world: World) -> (cases: [PositiveCase], package: PublishedPackage) {
        let end = world.start + Int64(world.days) * SimDuration.day
        let startDay = SimClock.dayNumber(world.start)
        let pick = RandomStream(seed: seed, stream: "detection-study-index", generator: .taus2)
        let tek = RandomStream(seed: world.simulationSeed, stream: "tek", generator: .taus2)
        var cases: [PositiveCase] = []
        var keys: [PublishedKey] = []
        for (phone, person) in world.appPhoneOwners.enumerated() {
            pick.reseed(StreamKey(seed: seed, stream: "detection-study-index", index: UInt64(phone)))
            guard pick.uniform() < indexShare else { continue }
            cases.append(PositiveCase(person: person, infectedAt: world.start - 3 * SimDuration.day, infectiousFromDay: startDay, symptomOnset: nil,
                                      testedAt: end - 6 * SimDuration.hour, resultAt: end - SimDuration.hour))
            for d in 0..<Int64(world.days) {
                let key = PhoneFleet.temporaryExposureKey(seed: world.simulationSeed, phone: phone, dayNumber: startDay + d, stream: tek)
                keys.append(PublishedKey(key: DiagnosisKey(key, transmissionRiskLevel: 6, reportType: .confirmedTest),
                                         uploader: person, uploadedAt: end - 30 * 60))
            }
        }
        return (cases, PublishedPackage(sequence: 0, name: "study/0", kind: .batch, publishedAt: end - 10 * 60,
                                        covers: end - SimDuration.hour..<end - 10 * 60, keys: keys, bytes: 0))
    }

    public func run(_ world: World, parameters: DetectionParameters, threads: Int) throws -> DetectionReport {
        let (cases, package) = publish(world)
        let detection = ExposureDetection(parameters: parameters, start: world.start, appPhoneOwners: world.appPhoneOwners, threads: threads)
        let downloads = world.appPhoneOwners.indices.map { PackageDownload(phone: Int32($0), package: 0, at: package.publishedAt + 60 + Int64($0 % 300)) }
        try detection.process(dayIndex: world.days - 1, downloads: downloads, packages: [package], encounters: world.encounters)
        return detection.finish(groundTruth: world.groundTruth, cases: cases)
    }
}
