import Simulation

extension ScenarioSchema {
    /// `distribution`: client download schedules, retries, offline days and the CDN (issue 7).
    static let distribution: [Field] = [
        .integer("clients", \S.distribution.clients, range: 0...200_000_000, unit: "clients", doc: """
            Clients downloading packages; the model uses max(this, app phones of the population). Extra clients only download \
            (e.g. 30 M for country-scale CDN load).
            """),
        .integer("check_interval_s", \S.distribution.checkIntervalSeconds, range: 60...86_400, unit: "seconds",
                 doc: "Interval the check schedule aligns to (CWA: hourly packages)."),
        .integer("check_jitter_s", \S.distribution.checkJitterSeconds, range: 1...86_400, unit: "seconds",
                 doc: "Next check = seconds until the next interval + random(jitter) (CWA seed: random(3600))."),
        .number("ios_share", \S.distribution.iosShare, range: 0...1, unit: "share",
                doc: "Share of iOS among download-only clients (contact-population phones keep their own OS)."),
        .section("offline_share", [
            .share("ios", \S.distribution.offlineShareIOS,
                   "Probability that an iOS client is offline for a whole UTC day (assumption; no seed value)."),
            .share("android", \S.distribution.offlineShareAndroid,
                   "Probability that an Android client is offline for a whole UTC day (assumption)."),
        ], doc: "Whole days without connectivity; the client catches up on return."),
        .section("deferral_share", [
            .share("ios", \S.distribution.deferralShareIOS,
                   "Probability that iOS defers a scheduled background check (BGTaskScheduler; assumption)."),
            .share("android", \S.distribution.deferralShareAndroid,
                   "Probability that Android defers a scheduled background check (Doze; assumption)."),
        ], doc: "Background checks the OS postpones."),
        .number("deferral_mean_s", \S.distribution.deferralMeanSeconds, range: 1...86_400, unit: "seconds",
                doc: "Mean of the exponential delay of a deferred check."),
        .section("retry", [
            .number("initial_s", \S.distribution.retryInitialSeconds, range: 1...86_400, unit: "seconds",
                    doc: "Backoff of the first retry (Android WorkManager: 30 s)."),
            .number("factor", \S.distribution.retryFactor, range: 1...10,
                    doc: "Growth of the backoff per failed attempt (WorkManager: exponential, 2)."),
            .number("max_s", \S.distribution.retryMaxSeconds, range: 1...604_800, unit: "seconds", doc: "Backoff cap (WorkManager: 5 h)."),
            .integer("max_attempts", \S.distribution.retryMaxAttempts, range: 0...100, unit: "retries",
                     doc: "Retries before the client returns to its regular schedule. Each retry waits uniform [base/2, base]."),
        ], check: { s in
            let (a, b) = (s.distribution.retryInitialSeconds, s.distribution.retryMaxSeconds)
            return a <= b ? nil : "initial_s (\(ValueTree.format(a))) must not exceed max_s (\(ValueTree.format(b)))"
        }, doc: "Randomised, growing, capped retries after a failed session (CWA seed: retry gracefully)."),
        .section("cdn", [
            .share("error_rate", \S.distribution.cdnErrorRate,
                   "Probability that a CDN request fails (5xx, timeout); the session is retried."),
            .integer("outage_start_s", \S.distribution.outageStartSeconds, range: 0...315_360_000, unit: "seconds",
                     doc: "Start of a CDN outage, seconds after the scenario start."),
            .integer("outage_duration_s", \S.distribution.outageDurationSeconds, range: 0...315_360_000, unit: "seconds",
                     doc: "Length of the outage (every request fails); 0 = no outage."),
            .integer("edges", \S.distribution.cdnEdges, range: 0...100_000, unit: "edges", doc: """
                CDN edges caching in front of the origin (CWA seed: a CDN absorbs the peaks); a client keeps one edge (hash of \
                its index). 0 = no edge-cache model; above 0 the outputs add the origin's requests, 304s, bytes and hit ratios.
                """),
            .integer("index_max_age_s", \S.distribution.cdnIndexMaxAgeSeconds, range: 0...31_536_000, unit: "seconds", doc: """
                Edge cache lifetime (Cache-Control max-age) of index files; cwa-server issue #149: 5 minutes ("5 Minutes is OK \
                for now", PR #349). Expired copies are revalidated: 304 if unchanged.
                """),
            .integer("package_max_age_s", \S.distribution.cdnPackageMaxAgeSeconds, range: 0...31_536_000, unit: "seconds",
                     doc: "Edge cache lifetime of packages (they never change); cwa-server issue #149 proposes 24 h for aggregate files."),
        ], doc: "CDN failures and edge caching."),
        .integer("http_overhead_bytes", \S.distribution.httpOverheadBytes, range: 0...1_000_000, unit: "bytes",
                 doc: "Request plus response headers per HTTP request (assumption: ~200 B request, ~400 B response)."),
        .integer("session_overhead_bytes", \S.distribution.sessionOverheadBytes, range: 0...1_000_000, unit: "bytes",
                 doc: "TLS handshake (certificate chain) per check session; one connection per session as the CWA seed plans."),
        .integer("bytes_sample_clients", \S.distribution.bytesSampleClients, range: 1...200_000_000, unit: "clients",
                 doc: "Clients (every k-th) whose bytes per day enter the median/p95 statistics."),
        .integer("config_download_bytes", \S.distribution.configBytes, range: 0...10_000_000, unit: "bytes", doc: """
            App configuration each check session fetches first, counted in the CDN load (config_requests): CWA's app \
            configuration, Immuni's `/v1/settings` (fetched "every time the App starts a background session", Immuni's \
            technology document). 0: not modelled (outputs as before). P6 disclosure fetches never count it.
            """),
        .boolean("skip_empty_packages", \S.distribution.skipsEmptyPackages, doc: """
            Clients skip packages without keys: CWA's index files list only hours and dates with keys (cwa-server#436, \
            June–August 2020). Off (default): empty hour files are listed and fetched, as CWA did from August 2020 \
            (cwa-server#650, #699). Immuni never publishes an empty chunk.
            """),
    ]
}
