// Detection's view of a run: beside the run, so Detection never depends on the type that composes it.

extension Simulation {
    /// Person index of each app phone (PhoneFleet order): what detection needs to map phones to ground truth.
    public var appPhoneOwners: [Int32] { fleet.owners }

    /// A detection for this run, to be called once per day after the day's downloads.
    public func makeExposureDetection(_ parameters: DetectionParameters) -> ExposureDetection {
        ExposureDetection(parameters: parameters, start: config.start, appPhoneOwners: fleet.owners, threads: config.threads)
    }

    /// The finished run as detection sees it.
    public var detectionWorld: DetectionStudy.World {
        DetectionStudy.World(simulationSeed: config.seed, start: config.start, days: config.days, appPhoneOwners: fleet.owners,
                             encounters: encounters, groundTruth: groundTruth)
    }
}
