import HealthBackend
extension BackendFlavor {
    /// The download protocol of the same app (here, not in Backend: distribution reads the
    /// backend's packages, never the other way round).
    public var distributionFlavor: DistributionFlavor { self == .cwa ? .cwa : .immuni }
}
