import Simulation

extension ScenarioSchema {
    /// `distribution`: client download schedules, retries, offline days and the CDN (issue 7).
    static let distribution: [Field] = [
        Field("clients", .integer(default: 0, range: 0...200_000_000), unit: "clients",
              doc: "Clients downloading packages; the model uses max(this, app phones of the population). Extra clients only download (e.g. 30 M for country-scale CDN load)."),
        Field("check_interval_s", .integer(default: 3_600, range: 60...86_400), unit: "seconds",
              doc: "Interval the check schedule aligns to (CWA: hourly packages)."),
        Field("check_jitter_s", .integer(default: 3_600, range: 1...86_400), unit: "seconds",
              doc: "Next check = seconds until the next interval + random(jitter) (CWA seed: random(3600))."),
        Field("ios_share", .number(default: 0.3, range: 0...1), unit: "share",
              doc: "Share of iOS among download-only clients (contact-population phones keep their own OS)."),
        Field("offline_share", .section([
            share("ios", 0.05, "Probability that an iOS client is offline for a whole UTC day (assumption; no seed value)."),
            share("android", 0.05, "Probability that an Android client is offline for a whole UTC day (assumption)."),
        ]), doc: "Whole days without connectivity; the client catches up on return."),
        Field("deferral_share", .section([
            share("ios", 0.2, "Probability that iOS defers a scheduled background check (BGTaskScheduler; assumption)."),
            share("android", 0.1, "Probability that Android defers a scheduled background check (Doze; assumption)."),
        ]), doc: "Background checks the OS postpones."),
        Field("deferral_mean_s", .number(default: 1_800, range: 1...86_400), unit: "seconds",
              doc: "Mean of the exponential delay of a deferred check."),
        Field("retry", .section([
            Field("initial_s", .number(default: 30, range: 1...86_400), unit: "seconds", doc: "Backoff of the first retry (Android WorkManager: 30 s)."),
            Field("factor", .number(default: 2, range: 1...10), doc: "Growth of the backoff per failed attempt (WorkManager: exponential, 2)."),
            Field("max_s", .number(default: 18_000, range: 1...604_800), unit: "seconds", doc: "Backoff cap (WorkManager: 5 h)."),
            Field("max_attempts", .integer(default: 5, range: 0...100), unit: "retries",
                  doc: "Retries before the client returns to its regular schedule. Each retry waits uniform [base/2, base]."),
        ], check: { v in
            let a = v["initial_s"]?.doubleValue ?? 0, b = v["max_s"]?.doubleValue ?? 0
            return a <= b ? nil : "initial_s (\(ScenarioValue.format(a))) must not exceed max_s (\(ScenarioValue.format(b)))"
        }), doc: "Randomised, growing, capped retries after a failed session (CWA seed: retry gracefully)."),
        Field("cdn", .section([
            share("error_rate", 0.001, "Probability that a CDN request fails (5xx, timeout); the session is retried."),
            Field("outage_start_s", .integer(default: 0, range: 0...315_360_000), unit: "seconds",
                  doc: "Start of a CDN outage, seconds after the scenario start."),
            Field("outage_duration_s", .integer(default: 0, range: 0...315_360_000), unit: "seconds",
                  doc: "Length of the outage (every request fails); 0 = no outage."),
        ]), doc: "CDN failures."),
        Field("http_overhead_bytes", .integer(default: 600, range: 0...1_000_000), unit: "bytes",
              doc: "Request plus response headers per HTTP request (assumption: ~200 B request, ~400 B response)."),
        Field("session_overhead_bytes", .integer(default: 4_500, range: 0...1_000_000), unit: "bytes",
              doc: "TLS handshake (certificate chain) per check session; one connection per session as the CWA seed plans."),
        Field("bytes_sample_clients", .integer(default: 1_000_000, range: 1...200_000_000), unit: "clients",
              doc: "Clients (every k-th) whose bytes per day enter the median/p95 statistics."),
    ]
}

extension SimulationConfig {
    static func distribution(_ v: ScenarioValue) -> DistributionParameters {
        var d = DistributionParameters()
        func int(_ key: String) -> Int64 { v.at("distribution." + key)!.intValue! }
        func number(_ key: String) -> Double { v.at("distribution." + key)!.doubleValue! }
        d.clients = Int(int("clients"))
        d.checkIntervalSeconds = int("check_interval_s")
        d.checkJitterSeconds = int("check_jitter_s")
        d.iosShare = number("ios_share")
        d.offlineShareIOS = number("offline_share.ios")
        d.offlineShareAndroid = number("offline_share.android")
        d.deferralShareIOS = number("deferral_share.ios")
        d.deferralShareAndroid = number("deferral_share.android")
        d.deferralMeanSeconds = number("deferral_mean_s")
        d.retryInitialSeconds = number("retry.initial_s")
        d.retryFactor = number("retry.factor")
        d.retryMaxSeconds = number("retry.max_s")
        d.retryMaxAttempts = Int(int("retry.max_attempts"))
        d.cdnErrorRate = number("cdn.error_rate")
        d.outageStartSeconds = int("cdn.outage_start_s")
        d.outageDurationSeconds = int("cdn.outage_duration_s")
        d.httpOverheadBytes = Int(int("http_overhead_bytes"))
        d.sessionOverheadBytes = Int(int("session_overhead_bytes"))
        d.bytesSampleClients = Int(int("bytes_sample_clients"))
        return d
    }
}
