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
    /// The seed's threats: phones that receive but never transmit nor disclose (freeloaders).
    public var attacks = P6Attacks()
    /// Share of disclosures revoked later (a test found false, an abusive disclosure taken down); 0: none.
    public var revokedShare = 0.0
    /// Time from a disclosure to its revocation.
    public var revocationDelaySeconds = 86_400
    /// Share of notified users who report their match to the authority (the seed's "reports
    /// submitted by users that believe they have a match"); 0: no reports.
    public var reportShare = 0.0
    /// Mean time from a notification to its report (exponential).
    public var reportDelayMeanSeconds = 43_200
    /// A disclosure with this many reports is revoked (too many matches to be believable).
    public var reportThreshold = 30
    /// Phones reading the list also drop their receptions of revoked disclosures' codes, and with
    /// them the Rx co-location matches those receptions made (off: only revoked disclosures' own
    /// matches are withdrawn).
    public var cleansRxMatches = false

    /// Whether phones read a revocation list (random revocations or revocation by reports).
    package var revocationList: Bool { revokedShare > 0 || reportShare > 0 }

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

/// Shares of misbehaving phones (p6-proximity-protocol.txt, "Threats"); 0: none.
public struct P6Attacks: Sendable, Equatable {
    /// Share of phones that only receive: they never transmit and never disclose.
    public var freeloaderShare = 0.0
    /// Share of app phones whose user installs P6 during the run (at a uniform time) to disclose
    /// once without a positive test (the seed's "Fake Disclosures").
    public var fakeDisclosureShare = 0.0
    /// Mean time from that install to the fake disclosure (exponential).
    public var fakeDelayMeanSeconds = 86_400
    /// Share of fake disclosers using a modified client, which ignores the app's own rules (app
    /// age, epoch age) but is what attestation can reject; the others use the genuine app.
    public var modifiedClientShare = 0.5
    /// The genuine app discloses only once it has been in use this long (seed: 24 h).
    public var minimumAppAgeSeconds = 86_400
    /// Share of modified clients' disclosures that app attestation (the seed's Approov tokens) rejects; 0: no attestation.
    public var attestationRejectShare = 1.0
    /// Scaled replay (the seed's "Scaled Replay"): attacks in the run; 0: none.
    public var replayAttacks = 0
    /// Relay devices per attack, each re-advertising the attacker's codes where another app phone is.
    public var replayRelays = 20
    /// Days of relaying before the attacker discloses.
    public var replayDays = 1
    /// Share of phones whose P6 app transmits at the phone's maximum power (the seed's "Excessively
    /// Powered Transmission"), and how many dB above the app's own power that is: Android's
    /// ADVERTISE_TX_POWER_HIGH (about +1 dBm) against the LOW level GAEN uses (about −15 dBm).
    public var excessPowerShare = 0.0
    public var excessPowerDB = 16.0

    public init() {}

    package var any: Bool { freeloaderShare > 0 || fakeDisclosureShare > 0 || replayAttacks > 0 || excessPowerShare > 0 }
}
