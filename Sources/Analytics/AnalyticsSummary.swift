import Detection
import HealthBackend
import SimulationCore
/// summary.json's `analytics` section: the Analytics Service's estimates against the truth, its
/// load, the iOS and Android checks and the attacks.
public struct AnalyticsSummary: Equatable, Sendable, Encodable {
    /// An estimate with its interval beside the truth it estimates.
    public struct Estimate: Equatable, Sendable, Encodable {
        public var truth: Double
        public var estimate: Double
        public var lower: Double
        public var upper: Double
        public var relativeError: Double { truth > 0 ? estimate / truth - 1 : 0 }

        package enum CodingKeys: String, CodingKey { case truth, estimate, lower = "ci_lower", upper = "ci_upper", relativeError = "relative_error" }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(truth, forKey: .truth)
            try c.encode(estimate, forKey: .estimate)
            try c.encode(lower, forKey: .lower)
            try c.encode(upper, forKey: .upper)
            try c.encode(relativeError, forKey: .relativeError)
        }
    }

    public struct Month: Equatable, Sendable, Encodable {
        public var month: String
        public var daysInRun: Int
        public var workingApps: Estimate
        /// Phones with a detection in their window: what the working-apps estimate samples.
        public var windowTests: Int
        public var workingAppsVsWindowTests: Double
        public var notifiedUsers: Estimate
        public var bluetoothOffShare: Estimate

        package enum CodingKeys: String, CodingKey {
            case month, daysInRun = "days_in_run", workingApps = "working_apps", windowTests = "window_tests"
            case workingAppsVsWindowTests = "working_apps_vs_window_tests", notifiedUsers = "notified_users"
            case bluetoothOffShare = "bluetooth_off_share"
        }
    }

    /// The province table in brief.
    public struct Provinces: Equatable, Sendable, Encodable {
        public var provinces: Int
        public var provincesWithPhones: Int
        public var provinceMonthsWithTruth: Int
        public var workingAppsMeanAbsError: Double
        public var workingAppsCICoversTruthShare: Double
        public var table: String

        package enum CodingKeys: String, CodingKey {
            case provinces, provincesWithPhones = "provinces_with_phones", provinceMonthsWithTruth = "province_months_with_truth"
            case workingAppsMeanAbsError = "working_apps_mean_abs_error"
            case workingAppsCICoversTruthShare = "working_apps_ci_covers_truth_share", table
        }
    }

    /// How often the 95% intervals, computed from uploads and p only, cover the truth: a measured
    /// property of the estimator (attacks that add uploads lower it).
    public struct Coverage: Equatable, Sendable, Encodable {
        public var regionMonths: Int
        public var workingApps: Double
        public var notifiedUsers: Double
        public var bluetoothOffShare: Double
        public var provinceMonths: Int
        public var workingAppsByProvince: Double

        package enum CodingKeys: String, CodingKey {
            case regionMonths = "region_months", workingApps = "working_apps", notifiedUsers = "notified_users"
            case bluetoothOffShare = "bluetooth_off_share", provinceMonths = "province_months"
            case workingAppsByProvince = "working_apps_by_province"
        }
    }

    public struct IOS: Equatable, Sendable, Encodable {
        public var tokensAuthorised: Int
        public var maxTokensPerDeviceMonth: Int
        public var doubleAuthorisations: Int
        public var rejectedAlreadyUsedThisMonth: Int
        public var blacklistings: Int
        public var deviceCheckTimeouts: Int
        public var invalidDeviceTokens: Int
        public var uploadsRejectedInvalidToken: Int
        public var uploadsRejectedTokenCap: Int
        public var uploadsSkippedWithoutValidToken: Int

        package enum CodingKeys: String, CodingKey {
            case tokensAuthorised = "tokens_authorised", maxTokensPerDeviceMonth = "max_tokens_per_device_month"
            case doubleAuthorisations = "double_authorisations", rejectedAlreadyUsedThisMonth = "rejected_already_used_this_month"
            case blacklistings, deviceCheckTimeouts = "device_check_timeouts", invalidDeviceTokens = "invalid_device_tokens"
            case uploadsRejectedInvalidToken = "uploads_rejected_invalid_token", uploadsRejectedTokenCap = "uploads_rejected_token_cap"
            case uploadsSkippedWithoutValidToken = "uploads_skipped_without_valid_token"
        }
    }

    public struct Android: Equatable, Sendable, Encodable {
        public var uploadsSkippedFirst24h: Int
        public var attestationFailedOnPhone: Int
        public var rejectedSaltSeen: Int
        public var rejectedStaleAttestation: Int
        public var rejectedFailedAttestation: Int

        package enum CodingKeys: String, CodingKey {
            case uploadsSkippedFirst24h = "uploads_skipped_first_24h", attestationFailedOnPhone = "attestation_failed_on_phone"
            case rejectedSaltSeen = "rejected_salt_seen", rejectedStaleAttestation = "rejected_stale_attestation"
            case rejectedFailedAttestation = "rejected_failed_attestation"
        }
    }

    public struct Attack: Equatable, Sendable, Encodable {
        public var requestsSent: Int
        public var uploadsAccepted: Int
        /// Share of the data polluted in the worst month.
        public var shareOfMonthDataPolluted: Double
        public var legitimateDevicesBlacklisted: Int
        /// Token attacks on iOS only.
        public var tokensAuthorised: Int?
        public var maxTokensPerDeviceMonth: Int?
        public var doubleAuthorisations: Int?

        package enum CodingKeys: String, CodingKey {
            case requestsSent = "requests_sent", uploadsAccepted = "uploads_accepted"
            case shareOfMonthDataPolluted = "share_of_month_data_polluted", legitimateDevicesBlacklisted = "legitimate_devices_blacklisted"
            case tokensAuthorised = "tokens_authorised", maxTokensPerDeviceMonth = "max_tokens_per_device_month"
            case doubleAuthorisations = "double_authorisations"
        }
    }

    /// `detections: simulated`: the detection runs fed to the model.
    public struct Detections: Equatable, Sendable, Encodable {
        public var source: String
        public var detectionRuns: Int
        public var checksSkipped: Int

        package enum CodingKeys: String, CodingKey { case source, detectionRuns = "detection_runs", checksSkipped = "checks_skipped" }
    }

    public var pWithExposure: Double
    public var pWithoutExposure: Double
    public var phones: Int
    public var months: [Month]
    public var provinces: Provinces
    public var intervalCoverage: Coverage
    public var requests: Int
    public var requestsPerHourMean: Double
    public var requestsPerHourPeak: Int
    public var requestsOnFirstOfMonthVsAverageDay: Double
    public var ios: IOS
    public var android: Android
    /// Per attack source, by name.
    public var attacks: NamedValues<Attack>
    public var events: Int
    public var detections: Detections?
    /// The p_OWOE sweep, one entry per value (the columns of sweep.csv).
    public var sweep: [AnalyticsSweep.Row]?

    package enum CodingKeys: String, CodingKey {
        case pWithExposure = "p_owe", pWithoutExposure = "p_owoe", phones, months, provinces
        case intervalCoverage = "interval_coverage", requests
        case requestsPerHourMean = "requests_per_hour_mean", requestsPerHourPeak = "requests_per_hour_peak"
        case requestsOnFirstOfMonthVsAverageDay = "requests_on_first_of_month_vs_average_day", ios, android, attacks, events
        case detections, sweep
    }
}
