import HealthBackend
/// Immuni's privacy-preserving analytics (Operational Info, iOS DeviceCheck analytics
/// tokens, Android SafetyNet checks), as the two analytics seeds describe them.
/// Times inside the model are milliseconds; durations here carry their unit in the name.
public struct AnalyticsParameters: Sendable, Equatable {
    public enum DetectionSource: String, Sendable, Equatable, CaseIterable {
        /// Each phone runs detections on its own schedule (`SyntheticDetections`).
        case synthetic
        /// The main simulation reports detections through `AnalyticsModel.detectionRan`.
        case simulated
    }

    public var enabled = false
    public var detections = DetectionSource.synthetic

    // Sampling (seed: "Operational Info with/without Exposure").
    /// p_OWE: the seed wants it "as close to 1 as possible".
    public var pWithExposure = 1.0
    /// p_OWOE: sampling rate of Operational Info without Exposure. 0.5 is ENSim's choice (the
    /// seed leaves it to the server configuration); the sweep shows the trade-off.
    public var pWithoutExposure = 0.5
    /// Length of the without-exposure window after T_OWOE + dT_OWOE (seed: 86,400 s).
    public var windowSeconds: Int64 = 86_400

    // iOS analytics tokens and DeviceCheck.
    /// Longest pause between the first and the second read (immuni-backend-analytics READ_TIME default 3 s).
    public var maxReadTimeMs: Int64 = 3_000
    /// Worker gives up on a DeviceCheck call after this long. 2 s makes the backend's CHECK_TIME
    /// default (7 s) meet the seed's bound max_read_time + 2·timeout exactly.
    public var deviceCheckTimeoutMs: Int64 = 2_000
    /// Pause between the first write and the third read; must be ≥ max_read_time + 2·timeout.
    public var checkTimeMs: Int64 = 7_000
    /// One-way network delay between a worker and the DeviceCheck server, uniform in [min, max]
    /// (two stored values, so a scenario sets each).
    public var deviceCheckLatencyMinMs: Int64 = 20
    public var deviceCheckLatencyMaxMs: Int64 = 400
    public var deviceCheckLatencyMs: ClosedRange<Int64> {
        get { deviceCheckLatencyMinMs...deviceCheckLatencyMaxMs }
        set { (deviceCheckLatencyMinMs, deviceCheckLatencyMaxMs) = (newValue.lowerBound, newValue.upperBound) }
    }
    /// A DeviceCheck token expires this long after the phone obtained it (Apple: "ephemeral").
    public var deviceCheckTokenLifetimeMs: Int64 = 3_600_000
    /// Uploads each analytics token may carry, per kind (seed: two with and two without exposure).
    public var uploadsPerTokenPerKind = 2
    /// One-way delay between a phone and the Analytics Service, uniform in [min, max]
    /// (two stored values, so a scenario sets each).
    public var clientLatencyMinMs: Int64 = 50
    public var clientLatencyMaxMs: Int64 = 300
    public var clientLatencyMs: ClosedRange<Int64> {
        get { clientLatencyMinMs...clientLatencyMaxMs }
        set { (clientLatencyMinMs, clientLatencyMaxMs) = (newValue.lowerBound, newValue.upperBound) }
    }

    // Android SafetyNet.
    /// The server rejects a salt seen within this window and attestations older than it (seed: 10 minutes).
    public var replayWindowMs: Int64 = 600_000
    /// The app uploads nothing within this time of its first configuration fetch, by server time (seed: 24 h).
    public var androidQuietAfterInstallSeconds: Int64 = 86_400
    /// Time the SafetyNet Attestation API takes to return an attestation, uniform in [min, max]
    /// (two stored values, so a scenario sets each).
    public var attestationLatencyMinMs: Int64 = 500
    public var attestationLatencyMaxMs: Int64 = 3_000
    public var attestationLatencyMs: ClosedRange<Int64> {
        get { attestationLatencyMinMs...attestationLatencyMaxMs }
        set { (attestationLatencyMinMs, attestationLatencyMaxMs) = (newValue.lowerBound, newValue.upperBound) }
    }
    /// Share of attestation requests from non-genuine devices that fail (seed: no known bypass of hardware attestation).
    public var nonGenuineFailShare = 1.0

    // Phones.
    /// Share of app phones that are genuine devices (others are rooted/emulated, see attacks).
    public var genuineShare = 1.0
    /// Share of phones with the exposure-notification permission granted (without it no detection runs).
    public var exposurePermissionShare = 0.97
    /// Share of phones with the local-notification permission granted.
    public var notificationPermissionShare = 0.9
    /// Regional weights for the province of domicile (default: ISTAT residents 2020).
    public var regionWeights: [Double] = ItalianRegions.all.map { Double($0.population) }
    /// Installs spread uniformly over this many days from the start (0: everyone installed at the start).
    public var installSpreadDays = 0

    // Synthetic detection source.
    /// Mean time between exposure detections (Immuni's exposure_detection_period: 14,400 s).
    public var iOSDetectionPeriodSeconds: Int64 = 14_400
    public var androidDetectionPeriodSeconds: Int64 = 14_400
    /// Each detection is deferred by the OS by up to this share of the period (uniform).
    public var detectionDeferralShare = 0.5
    /// Daily probability that a phone's detection finds a risky exposure.
    public var riskyExposurePerDay = 0.002

    /// p_OWOE values for the sampling sweep (empty: no sweep).
    public var sweepPWithoutExposure: [Double] = []

    public var attacks = AnalyticsAttacks()

    public init() {}
    public static let `default` = AnalyticsParameters()

    /// The seed's bound on check_time: max_read_time + 2 · device_check_server_timeout.
    public var checkTimeBoundMs: Int64 { maxReadTimeMs + 2 * deviceCheckTimeoutMs }
}

/// Attackers trying to pollute the analytics (the `analytics.attacks` block); all off by default.
public struct AnalyticsAttacks: Sendable, Equatable {
    /// iOS attacker with K genuine devices authorising as many tokens as it can.
    public var iOSTokenFarmDevices = 0
    /// Authorisation requests each farm device sends per month (one every few hours).
    public var iOSTokenFarmRequestsPerMonth = 60
    /// iOS attacker sending bursts of concurrent authorisations from each of K devices.
    public var iOSRaceDevices = 0
    /// Concurrent requests in each burst (different analytics tokens, same device).
    public var iOSRaceBurst = 2
    /// Spread of the burst's send times, uniform in [0, this].
    public var iOSRaceSpreadMs: Int64 = 500
    /// Legitimate iOS authorisation requests intercepted and replayed per month.
    public var iOSReplaysPerMonth = 0
    /// Delay of a replay after the original request.
    public var iOSReplayDelayMs: Int64 = 200
    /// Legitimate Android uploads intercepted and replayed per month.
    public var androidReplaysPerMonth = 0
    /// Replay delay, uniform in [0, this] (covers both sides of the 10-minute window).
    public var androidReplayMaxDelayMs: Int64 = 1_800_000
    /// Genuine Android devices reinstalling the app and changing the clock every day.
    public var androidReinstallDevices = 0
    /// Rooted or emulated Android devices uploading every day.
    public var androidNonGenuineDevices = 0

    public init() {}

    public var any: Bool {
        iOSTokenFarmDevices + iOSRaceDevices + iOSReplaysPerMonth + androidReplaysPerMonth
            + androidReinstallDevices + androidNonGenuineDevices > 0
    }
}
