/// Which national backend is simulated.
public enum BackendFlavor: String, Sendable, CaseIterable {
    /// Corona-Warn-App: QR/teleTAN → registration token → polling → TAN; hourly and daily packages.
    case cwa
    /// Immuni: OTP authorised by a health operator; TEK chunks with an incremental index.
    case immuni
}

/// Verification, upload and publishing settings. Defaults from the seeds and the real
/// servers' configuration (see docs/model/backend.md and shared/reference/gaen.md).
public struct BackendParameters: Sendable, Equatable {
    public var flavor: BackendFlavor = .cwa

    // Upload limits and validation.
    /// Keys accepted per upload: CWA submission `max-number-of-keys` 14, Immuni `MAX_KEYS_PER_UPLOAD` 30.
    public var maxKeysPerUpload: Int? = nil
    public var effectiveMaxKeysPerUpload: Int { maxKeysPerUpload ?? (flavor == .cwa ? 14 : 30) }
    /// Share of real uploads from faulty clients (duplicate, malformed, future or overlapping key).
    public var faultyUploadShare: Double = 0.01
    /// Share of successful uploads the client repeats with the same TAN/OTP (e.g. after a timeout).
    public var credentialReuseShare: Double = 0.02
    /// Transmission risk level by key age in days (0 = day of upload), CWA app 1.x default vector.
    public var transmissionRiskByAge: [Int32] = [5, 6, 8, 8, 8, 5, 3, 1, 1, 1, 1, 1, 1, 1, 1]

    // CWA verification.
    /// Share of positives without a QR code who get a teleTAN through the hotline.
    public var teleTANShare: Double = 0.15
    /// Result → hotline call that issues the teleTAN, hours.
    public var hotlineDelayHours = Delay(mean: 12, sd: 8)
    /// The app polls the verification server for the test result this often (polling, not push).
    public var pollIntervalMinutes: Int = 120

    // Upload failures and retries (issue 19); off by default.
    /// Share of a case's upload attempts lost in the network: the request never reaches the
    /// server (the apps show "connection could not be established, try again"; no store and
    /// forward, cwa-app-android#2182). Assumption; 0 = off.
    public var uploadFailureShare: Double = 0
    /// A failed upload → the user tries again, minutes (gamma). Assumption.
    public var uploadRetryDelayMinutes = Delay(mean: 15, sd: 15)
    /// Upload attempts (the first included) before the user gives up.
    public var uploadMaxAttempts: Int = 3
    /// CWA: share of uploading users whose app lost its registration token before the upload
    /// (reinstalled, reset or new phone): they call the hotline for a teleTAN (CWA solution
    /// architecture: "If a user deletes and re-installs the app, the stored registration token is
    /// lost … the fallback to the health authority workflow (through a hotline) needs to be used").
    /// Assumption; 0 = off.
    public var cwaTokenLossShare: Double = 0

    // Immuni verification.
    /// OTP validity after authorisation (immuni-backend-otp `OTP_EXPIRATION_SECONDS`).
    public var otpValiditySeconds: Int64 = 150
    /// Health operator mistypes the dictated OTP.
    public var otpTypoShare: Double = 0.03
    /// Authorisation → user taps "verify" (check-otp), seconds.
    public var otpCheckDelaySeconds = Delay(mean: 60, sd: 45)
    /// check-otp → upload (consent screen), seconds.
    public var otpUploadDelaySeconds = Delay(mean: 20, sd: 10)
    /// Attempts with a fresh OTP before the user gives up.
    public var otpMaxAttempts: Int = 3

    /// Immuni: the ingestion service keeps only the keys of days from `immuniDaysBeforeSymptoms`
    /// before `symptoms_started_on` and gives them the highest transmission risk level
    /// (immuni-backend-exposure-ingestion `extract_keys_with_risk_level_from_upload`); off by
    /// default (every accepted key is published, as before).
    public var immuniKeysFromOnset: Bool = false
    /// Immuni `DAYS_BEFORE_SYMPTOMS_TO_CONSIDER_KEY_AT_RISK` (2).
    public var immuniDaysBeforeSymptoms: Int = 2

    // Dummy traffic from healthy phones (Immuni-Dummy-Data, CWA fake requests).
    /// Dummy upload sessions per app phone per day.
    public var dummyUploadsPerPhoneDay: Double = 0.1

    // Upload bodies (UploadBodies.swift), padded so real and dummy uploads look alike.
    /// Immuni `teks_packet_size` (June 2020 app configuration): the app pads URL, method, headers
    /// and body to this; ENSim pads the body alone to it (headers are not modelled).
    public var immuniUploadTargetBytes: Int = 110_000
    /// Immuni `teks_max_summary_count` and `teks_max_info_count`: caps on the epidemiological info.
    public var immuniMaxSummaryCount: Int = 84
    public var immuniMaxExposureInfoCount: Int = 600
    /// CWA app `MIN_KEY_COUNT_FOR_SUBMISSION` (14; 15 in later versions) and its 28 B per missing key.
    public var cwaPaddedKeyCount: Int = 14
    public var cwaPaddingBytesPerKey: Int = 28

    // Cross-border keys.
    /// Keys per day from other countries' backends through the EFGS, published in the national
    /// packages (0 = none). CWA's EUR package carried "around 10.000 keys per day" from the EFGS
    /// in January 2021 (cwa-documentation issue "Questions on the downloaded keys").
    public var efgsKeysPerDay: Double = 0

    // Publishing.
    /// CWA: keys an hourly package needs (`shifting-policy-threshold`), else an empty file and the keys wait.
    public var minKeysPerPackage: Int = 140
    /// CWA: `maximum-number-of-keys-per-bundle`; Immuni: `MAX_KEYS_PER_BATCH` (10,000) per chunk.
    public var maxKeysPerPackage: Int? = nil
    public var effectiveMaxKeysPerPackage: Int { maxKeysPerPackage ?? (flavor == .cwa ? 600_000 : 10_000) }
    /// CWA: a key is distributed only this long after the end of its rolling period (`expiry-policy-minutes`).
    public var expiryPolicyMinutes: Int = 120
    /// CWA submission `random-key-padding-multiplier`: N stores N − 1 random keys per real key.
    public var keyPaddingMultiplier: Int = 1
    /// Immuni: hours between TEK chunk batches (`BATCH_PERIODICITY_CRONTAB` "0 0 * * *" = 24).
    public var batchPeriodHours: Int = 24
    /// Keys and packages are deleted this many days after publication / key start.
    public var retentionDays: Int = 14
    /// Keep the zip bytes of every package so the run folder gets `exports/`.
    public var keepExports: Bool = false

    public init() {}

    public static let `default` = BackendParameters()

    /// Export region and Apple/Google verification key ID (the country's MCC).
    public var region: String { flavor == .cwa ? "DE" : "222" }
    public var verificationKeyID: String { flavor == .cwa ? "262" : "222" }
}
