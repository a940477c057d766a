import SimulationCore
/// summary.json's `backend` section: requests, rejections, keys, packages and bytes.
public struct BackendSummary: Equatable, Sendable, Encodable {
    public struct Uploads: Equatable, Sendable, Encodable {
        public var real: Int64
        public var dummy: Int64
        public var national: Int64
        public var rejected: Int64
        public var bytes: Int64
    }

    public struct Keys: Equatable, Sendable, Encodable {
        public var received: Int64
        public var rejected: Int64
        public var published: Int64
        public var padding: Int64
        public var droppedCurrentDay: Int64
        public var expiredUnpublished: Int
        public var pendingAtEnd: Int
        /// Keys from other countries' backends (EFGS); nil (absent) unless `backend.efgs.keys_per_day` > 0.
        public var efgs: Int64? = nil
        /// Immuni: keys from before the risk window of symptoms_started_on; nil (absent) unless
        /// `backend.immuni_keys_from_onset.enabled`.
        public var droppedBeforeOnset: Int64? = nil

        package enum CodingKeys: String, CodingKey {
            case received, rejected, published, padding, droppedCurrentDay = "dropped_current_day"
            case expiredUnpublished = "expired_unpublished", pendingAtEnd = "pending_at_end", efgs
            case droppedBeforeOnset = "dropped_before_onset"
        }
    }

    public struct Packages: Equatable, Sendable, Encodable {
        public var published: Int
        public var hourly: Int
        public var daily: Int
        public var batches: Int
        public var empty: Int
        public var deletedByRetention: Int
        public var onCDNAtEnd: Int
        public var bytes: Int64
        public var maxKeys: Int

        package enum CodingKeys: String, CodingKey {
            case published, hourly, daily, batches, empty, deletedByRetention = "deleted_by_retention"
            case onCDNAtEnd = "on_cdn_at_end", bytes, maxKeys = "max_keys"
        }
    }

    /// Immuni's OTP typos: caught by the check character, or authorised all the same.
    public struct OTPTypos: Equatable, Sendable, Encodable {
        public var caughtByCheckCharacter: Int64
        public var authorised: Int64

        package enum CodingKeys: String, CodingKey {
            case caughtByCheckCharacter = "typos_caught_by_check_character", authorised = "typos_authorised"
        }
    }

    /// Immuni's chunk index at the end of the run.
    public struct KeysIndex: Equatable, Sendable, Encodable {
        public var oldest: Int
        public var newest: Int
    }

    public var flavor: String
    public var requestsTotal: Int64
    public var requestsByEndpoint: NamedValues<Int64>
    public var resultPolls: Int64
    public var authFailures: NamedValues<Int64>
    public var uploadRejections: NamedValues<Int64>
    public var uploads: Uploads
    public var keys: Keys
    public var packages: Packages
    /// Immuni only.
    public var otp: OTPTypos?
    /// Immuni only, once an index exists.
    public var keysIndex: KeysIndex?
    /// Only with `backend.upload_failure.share` > 0.
    public var uploadFailures: UploadFailureSummary? = nil
    /// CWA's teleTANs after the app lost its registration token; only with `backend.cwa_token_loss_share` > 0.
    public var teleTANAfterTokenLoss: Int64? = nil

    package enum CodingKeys: String, CodingKey {
        case flavor, requestsTotal = "requests_total", requestsByEndpoint = "requests_by_endpoint", resultPolls = "result_polls"
        case authFailures = "auth_failures", uploadRejections = "upload_rejections", uploads, keys, packages, otp
        case keysIndex = "keys_index", uploadFailures = "upload_failures", teleTANAfterTokenLoss = "teletan_after_token_loss"
    }
}
