/// summary.json's `distribution` section: the CDN's load and what clients fetched.
public struct DistributionSummary: Equatable, Sendable, Encodable {
    /// A rate x / n (0 without trials) with the bounds of its interval.
    public struct Rate: Equatable, Sendable, Encodable {
        public var estimate: Double
        public var lower: Double
        public var upper: Double

        package enum CodingKeys: String, CodingKey { case estimate, lower = "ci_lower", upper = "ci_upper" }
    }

    /// Bytes per client and day over complete days of the sampled clients (0 when none).
    public struct BytesPerClientDay: Equatable, Sendable, Encodable {
        public var sampledClientDays: Int
        public var mean: Double
        public var median: Double
        public var p95: Double

        package enum CodingKeys: String, CodingKey { case sampledClientDays = "sampled_client_days", mean, median, p95 }
    }

    /// Publication-to-download latency, from the histogram's one-minute bins (0 without downloads).
    public struct LatencyMinutes: Equatable, Sendable, Encodable {
        public var downloads: Int
        public var median: Double
        public var p90: Double
        public var p99: Double
    }

    public var flavor: String
    public var clients: Int
    public var contactPhones: Int
    public var stateBytesPerClient: Int
    public var simulatedDays: Double
    public var packagesPublished: Int
    public var requests: Int
    public var indexRequests: Int
    public var packageRequests: Int
    /// Configuration downloads; only when modelled (nil is not encoded).
    public var configRequests: Int?
    public var retryRequests: Int
    public var notModified304: Int
    public var notFound404: Int
    public var errors: Int
    public var errorRate: Rate
    public var sessions: Int
    public var offlineChecks: Int
    public var deferredChecks: Int
    public var packagesDownloaded: Int
    public var requestsPerDay: Double
    public var sessionsPerDay: Double
    public var bytes: Int
    public var terabytesPerDay: Double
    public var meanRequestsPerSecond: Double
    public var peakRequestsPerSecond: Int
    public var bytesPerClientPerDay: BytesPerClientDay
    public var latencyMinutes: LatencyMinutes
    /// The CWA seed's estimate beside the run's (nil in P6's per-stream summaries).
    public var cwaSeedComparison: SeedComparison?
    /// Edge caches and origin load (nil, and absent from the JSON, without `distribution.cdn.edges`).
    public var cdn: CDNSummary? = nil

    package enum CodingKeys: String, CodingKey {
        case flavor, clients, contactPhones = "contact_phones", stateBytesPerClient = "state_bytes_per_client"
        case simulatedDays = "simulated_days", packagesPublished = "packages_published", requests
        case indexRequests = "index_requests", packageRequests = "package_requests", configRequests = "config_requests"
        case retryRequests = "retry_requests"
        case notModified304 = "not_modified_304", notFound404 = "not_found_404", errors, errorRate = "error_rate", sessions
        case offlineChecks = "offline_checks", deferredChecks = "deferred_checks", packagesDownloaded = "packages_downloaded"
        case requestsPerDay = "requests_per_day", sessionsPerDay = "sessions_per_day", bytes, terabytesPerDay = "terabytes_per_day"
        case meanRequestsPerSecond = "mean_requests_per_second", peakRequestsPerSecond = "peak_requests_per_second"
        case bytesPerClientPerDay = "bytes_per_client_per_day", latencyMinutes = "latency_minutes"
        case cwaSeedComparison = "cwa_seed_comparison", cdn
    }
}
