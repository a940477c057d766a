extension Simulation {
    /// Person index of each app phone (PhoneFleet order): what detection needs to map phones to ground truth.
    public var appPhoneOwners: [Int32] { fleet.owners }

    /// A detection for this run, to be called once per day after the day's downloads.
    public func makeExposureDetection(_ parameters: DetectionParameters) -> ExposureDetection {
        ExposureDetection(parameters: parameters, start: config.start, appPhoneOwners: fleet.owners, threads: config.threads)
    }
}
