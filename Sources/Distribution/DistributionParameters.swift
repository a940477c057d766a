import EventEngine

/// Which national app's download protocol the clients follow.
public enum DistributionFlavor: String, Sendable, CaseIterable {
    /// Corona-Warn-App: hourly and daily packages behind date and hour index files.
    case cwa
    /// Immuni: `/v1/keys/index` (oldest, newest) then every newer chunk.
    case immuni
    /// P6 disclosure files: the phone remembers the last file it fetched (P6 seed), so like
    /// Immuni an index (oldest, newest) then every newer file.
    case p6
}

/// Client download behaviour and CDN model (scenario block `distribution`).
///
/// Sources: the CWA seed ("Data transfer and data processing": next check at "seconds until the
/// next interval + random(3600)", graceful randomised growing retries, catch-up after breaks;
/// "Bandwidth estimations": 30 M clients, 2,000 cases/day, 100% overhead). Retry defaults are
/// Android WorkManager's (30 s initial, exponential, 5 h maximum). Offline, deferral, error and
/// overhead shares have no seed value: they are stated assumptions, all configurable.
public struct DistributionParameters: Sendable, Equatable {
    /// Clients simulated for downloads; the model uses max(this, app phones of the contact population).
    public var clients = 0
    /// Package interval the schedule aligns to (CWA: hourly).
    public var checkIntervalSeconds: Int64 = 3_600
    /// Random part added after the next interval boundary (CWA: random(3600)).
    public var checkJitterSeconds: Int64 = 3_600
    /// Share of app clients on iOS among download-only clients (contact phones bring their own OS).
    public var iosShare = 0.3
    /// Probability that a client is offline (no connectivity, phone off) for a whole UTC day.
    public var offlineShareIOS = 0.05
    public var offlineShareAndroid = 0.05
    /// Probability that the OS defers a scheduled background check, and the mean delay.
    public var deferralShareIOS = 0.2
    public var deferralShareAndroid = 0.1
    public var deferralMeanSeconds = 1_800.0
    /// Retry after a failed session: uniform in [base/2, base], base = min(max, initial · factor^(attempt−1)).
    public var retryInitialSeconds = 30.0
    public var retryFactor = 2.0
    public var retryMaxSeconds = 18_000.0
    /// Retries before the client falls back to its regular schedule.
    public var retryMaxAttempts = 5
    /// Probability that a CDN request fails (5xx, timeout).
    public var cdnErrorRate = 0.001
    /// CDN outage: every request fails in [start + outageStart, … + outageDuration); duration 0 = none.
    public var outageStartSeconds: Int64 = 0
    public var outageDurationSeconds: Int64 = 0
    /// CDN edges with caches in front of the origin (each client keeps one, by a hash of its
    /// index); 0 = no edge-cache model (the origin load is not reported).
    public var cdnEdges = 0
    /// Cache lifetime (`Cache-Control: max-age`) of index files at the edges: cwa-server issue #149
    /// (5 minutes for hour indexes, "5 Minutes is OK for now" for the first iteration, PR #349).
    public var cdnIndexMaxAgeSeconds: Int64 = 300
    /// Cache lifetime of packages (immutable files): cwa-server issue #149 proposes 24 hours.
    public var cdnPackageMaxAgeSeconds: Int64 = 86_400
    /// HTTP request and response headers per request.
    public var httpOverheadBytes = 600
    /// TLS handshake per check session (one connection per session, as the CWA seed plans).
    public var sessionOverheadBytes = 4_500
    /// Bins of the latency histogram and the per-client-day bytes sample (at most this many clients).
    public var bytesSampleClients = 1_000_000
    /// Write distribution_minutes.csv (1,440 rows a day); off, the load is kept per hour, so a long
    /// run's memory does not grow with per-minute counters.
    public var writesMinutes = true
    /// Bytes of the app configuration each check session fetches first (CWA's app configuration,
    /// Immuni's `/v1/settings`); 0: configuration downloads are not modelled (the model before them).
    public var configBytes = 0
    /// Clients skip packages without keys: CWA's index files list only hours and dates with keys
    /// (cwa-server#436, June–August 2020). Off: empty packages are listed and fetched, as CWA did
    /// from August 2020 (cwa-server#650, #699). Immuni never publishes an empty chunk.
    public var skipsEmptyPackages = false

    /// Whether sessions fetch the configuration (and the load tables count it).
    public var countsConfig: Bool { configBytes > 0 }

    public init() {}

    public static let `default` = DistributionParameters()

    /// Backoff base of retry `attempt` (1, 2, …): grows by `retryFactor`, capped at `retryMaxSeconds`.
    public func retryBase(attempt: Int) -> Double {
        var base = retryInitialSeconds
        var k = 1
        while k < attempt && base < retryMaxSeconds {
            base *= retryFactor
            k += 1
        }
        return min(base, retryMaxSeconds)
    }
}
