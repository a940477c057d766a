import P6

/// The `p6` scenario block: P6 phones running next to GAEN on the same contacts.
public struct P6RunParameters: Sendable, Equatable {
    /// Off by default so runs without the block keep their outputs byte for byte.
    public var enabled = false
    public var transmit = P6TransmitParameters()
    /// Slice length; the seed's "approximately 1 minute".
    public var sliceSeconds = P6Epoch.defaultSliceDuration
    /// Days of Rx trace a phone keeps (the "~3 weeks").
    public var rxRetentionDays = 21
    /// Full match: at least `matchThreshold` matched slices in `matchWindow` consecutive ones.
    public var matchWindow = P6Matcher.defaultWindow
    public var matchThreshold = P6Matcher.defaultThreshold
    /// An epoch is disclosed only once it started at least this long ago (seed: 24 h).
    public var minimumEpochAgeSeconds = 86_400
    /// Disclosures are published in one file per period (seed: one file each hour).
    public var disclosureFileSeconds = 3_600
    /// Standard deviation of a phone's clock error against UTC per day (seed: "a second or so").
    public var clockOffsetSigmaSeconds = 0.5
    /// Disclosure streams, one per region (the seed: "each geographic region will have an
    /// associated stream of disclosure events"). 1: one stream for the whole population.
    public var regions = 1
    /// Which region streams a phone fetches.
    public var subscription = P6Subscription.home
    /// Share of disclosers who state the regions they visited (the seed: "multiple disclosures
    /// ... if the user states that they have visited them"); their disclosure goes to those streams too.
    public var statedRegionsShare = 0.0
    /// How a disclosure's Rx trace is laid out; raw keeps the first-wave figures byte for byte.
    public var rxTraceEncoding = P6RxTraceEncoding.raw
    /// At most this many Rx records disclosed per slice (the seed's sub-sampling in busy periods); 0: all.
    public var rxRecordsPerSlice = 0
    /// Leave out of a disclosure the Rx records received at home (the seed's home location; in
    /// ENSim's contact model, the household contacts, i.e. the householders' codes).
    public var withholdAtHome = false
    /// How far below GAEN's calibrated power P6 advertises (dB): the seed keeps P6's "transmit
    /// power very low so that only devices in very close proximity can receive the codes". 0:
    /// the same power as GAEN (the first-wave figures).
    public var txPowerReductionDB = 0.0
    /// Share of disclosures revoked later (a test found false, an abusive disclosure taken down); 0: none.
    public var revokedShare = 0.0
    /// Time from a disclosure to its revocation.
    public var revocationDelaySeconds = 86_400

    public init() {}

    public static let `default` = P6RunParameters()
}

/// The disclosure streams a P6 phone fetches.
public enum P6Subscription: String, Sendable, CaseIterable {
    /// Its home region's stream only.
    case home
    /// Every region's stream (the seed's "matches over multiple regions").
    case all
}
