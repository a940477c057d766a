/// Where phones are carried: the body and bags attenuate the signal.
public enum Placement: Int, CaseIterable, Sendable {
    case hand, pocket, bag

    public var name: String { ["hand", "pocket", "bag"][rawValue] }
}

/// The Bluetooth channel model. Attenuation, as GAEN computes it (advertised Tx power −
/// measured RSSI), is modelled in dB as
///
///     A = A₁ + L_env + 10·n·log₁₀(d / 1 m) + L(placement of each phone) + B·[body between] + S + F + E
///
/// with A₁ the attenuation at 1 m in line of sight, L_env the environment's extra loss, n the
/// path-loss exponent of the environment, L the placement losses, B the body-blocking loss, S log-normal shadowing drawn
/// once per contact (σ of the environment), F fast fading per advert (σ_fast) and E the sum of
/// the two devices' calibration errors. Defaults are round values in the ranges reported by
/// Leith & Farrell's GAEN measurements (Trinity College Dublin, 2020: median attenuation
/// ≈ 50–60 dB at 1–2 m, body and pocket losses of 5–15 dB, little correlation with distance
/// in trams and buses) and Google's calibration notes; they are approximate.
public struct RadioParameters: Sendable, Equatable {
    /// Attenuation at 1 m, line of sight, between calibrated phones (free space at 2.44 GHz: 40.2 dB).
    public var attenuationAt1m: Double = 42
    /// Path-loss exponent per contact layer (household, workplace, school, community, transport).
    /// Workplace: fitted to indoor RSSI at known distances (Ng et al. 2021, Lanfer et al. 2022;
    /// `ensim radio fit --layer workplace`, 1.20 ± 0.09). Transport: fitted to Leith & Farrell's
    /// tram measurements (`ensim radio fit`, 0.36 ± 0.38). The others are round values: no data.
    public var pathLossExponent: [Double] = [1.8, 1.2, 1.8, 2.0, 0.36]
    /// Shadowing σ per layer, drawn once per contact (dB). Workplace: the same indoor fit (2.67 ±
    /// 0.17 dB). Transport: the tram fit leaves no room for shadowing beyond placement, body and
    /// calibration losses (0 ± 1.5 dB).
    public var shadowingSigma: [Double] = [5, 2.67, 5, 6, 0]
    /// Extra loss of the environment per layer (dB). Transport: the tram carriage, fitted
    /// (7.1 ± 1.6 dB); the other layers have no measurement to fit and keep 0.
    public var environmentLoss: [Double] = [0, 0, 0, 0, 7.1]
    /// Per-advert fading σ (dB).
    public var fadingSigma: Double = 3
    /// Loss of each placement (hand, pocket, bag), dB.
    public var placementLoss: [Double] = [0, 6, 10]
    /// Share of contacts with each phone in hand, pocket, bag (sum 1).
    public var placementShares: [Double] = [0.2, 0.5, 0.3]
    /// Probability that a body blocks the line of sight, and the extra loss then (dB).
    public var bodyBlockProbability: Double = 0.3
    public var bodyBlockLoss: Double = 10
    /// Residual calibration error σ of a device model after GAEN's Tx/RSSI correction (dB).
    public var calibrationErrorSigma: Double = 3
    /// Packet reception: probability 50% at this attenuation, logistic with this scale (dB).
    public var receptionMidpoint: Double = 82
    public var receptionScale: Double = 4
    public var advertIntervalMinMs: Double = 200
    public var advertIntervalMaxMs: Double = 270
    /// Advertising interval, uniform in [min, max] (ms): GAEN advertises every ~250 ms. Stored as two
    /// values so a scenario sets each.
    public var advertIntervalMs: ClosedRange<Double> {
        get { advertIntervalMinMs...advertIntervalMaxMs }
        set { (advertIntervalMinMs, advertIntervalMaxMs) = (newValue.lowerBound, newValue.upperBound) }
    }
    /// Scanning: a window of this length every period (Android's default: 4 s every 300 s).
    public var scanWindowSeconds: Double = 4
    public var scanPeriodSeconds: Int = 300
    /// Android phones scan every `scanPeriodSeconds` minus a uniform 0…this many seconds, drawn per
    /// scan (GAEN's `scanIntervalRandomRangeSeconds`, 90: every 210–300 s); iPhones keep the fixed
    /// period. 0: every phone scans at the fixed period (default).
    public var androidScanIntervalRandomRangeSeconds: Int = 0
    /// Both directions of a contact share one draw of placements, body blocking and shadowing (the
    /// path is the same both ways); false: each direction draws its own (default).
    public var reciprocalShadowing = false
    /// Device models and their shares among phones of each OS.
    public var deviceModels: [DeviceModel] = DeviceModel.defaults
    /// RPI (and Bluetooth address) rotation interval bounds (minutes).
    public var rpiRotationMinMinutes: Int = 10
    public var rpiRotationMaxMinutes: Int = 20
    /// Each app phone's clock is off by a normal offset with this standard deviation (minutes),
    /// drawn once, clipped to ±`clockSkewMaxMinutes`; 0: every clock exact (default).
    public var clockSkewSDMinutes: Double = 0
    /// Clip of the offsets: GAEN matches an RPI up to 12 intervals (2 h) outside its key's
    /// validity (`tkMatchingClockDriftRollingPeriods`), the tolerance it allows a clock.
    public var clockSkewMaxMinutes: Double = 120
    /// Adverts lost when they overlap another advertiser's on the same channel (`AdvertCollisionModel`); off by default.
    public var collisionsEnabled = false
    /// Air time of one legacy advertising packet at 1 Mb/s (µs): GAEN's 47 bytes (1 preamble, 4 access address,
    /// 2 header, 6 address, 31 payload, 3 CRC) take 376 µs (Bluetooth Core 5.2, Vol 6 Part B §2.1; GAEN Bluetooth spec 1.2).
    public var advertAirtimeMicroseconds: Double = 376
    /// Advertisers a receiver hears for each app phone it is in contact with (1: only the contacts advertise).
    public var advertisersPerContact: Double = 1
    /// A collided advert survives when it is stronger than the sum of the adverts overlapping it by
    /// `captureThresholdDB` (the capture effect); off: any overlap loses it (default).
    public var captureEnabled = false
    /// Wanted-to-interferer power ratio a receiver needs on its channel (dB): 21 dB is the co-channel
    /// C/I every Bluetooth LE receiver must meet (Core 5.2, Vol 6 Part A §4.2); chips do 12–14 dB.
    public var captureThresholdDB: Double = 21
    /// Phones that transmit P6 beside GAEN count as two advertisers while they transmit P6 (with `p6`).
    public var dualProtocolAdvertisers = false

    public init() {}
    public static let `default` = RadioParameters()

    /// Problems with the parameters, each naming the parameter; empty when valid.
    public func validate() -> [String] {
        var problems: [String] = []
        let layers = ContactLayer.allCases.count
        if pathLossExponent.count != layers || pathLossExponent.contains(where: { $0 < 0 }) { problems.append("path_loss_exponent: one non-negative value per layer") }
        if shadowingSigma.count != layers || shadowingSigma.contains(where: { $0 < 0 }) { problems.append("shadowing_sigma_db: one non-negative value per layer") }
        if environmentLoss.count != layers { problems.append("environment_loss_db: one value per layer") }
        if fadingSigma < 0 { problems.append("fading_sigma_db must not be negative") }
        if calibrationErrorSigma < 0 { problems.append("calibration_error_sigma_db must not be negative") }
        if abs(placementShares.reduce(0, +) - 1) > 1e-6 { problems.append("placement shares must sum to 1") }
        if receptionScale <= 0 { problems.append("reception_scale_db must be positive") }
        if rpiRotationMinMinutes > rpiRotationMaxMinutes { problems.append("rpi_rotation_min_minutes must not exceed rpi_rotation_max_minutes") }
        if !(clockSkewSDMinutes >= 0) || !(clockSkewMaxMinutes >= 0) { problems.append("clock_skew: minutes must not be negative") }
        if !(advertAirtimeMicroseconds > 0) || !(advertisersPerContact >= 0) { problems.append("collisions: air time must be positive, advertisers per contact not negative") }
        if scanWindowSeconds <= 0 || Double(scanPeriodSeconds) <= scanWindowSeconds { problems.append("scan window must be positive and shorter than the scan period") }
        let range = androidScanIntervalRandomRangeSeconds
        if range < 0 || (range > 0 && Double(scanPeriodSeconds - range) <= scanWindowSeconds) {
            problems.append("android_scan_interval_random_range_s: the shortest interval must stay longer than the scan window")
        }
        return problems
    }
}
