import Simulation

/// The `analytics` block: Immuni's privacy-preserving analytics (see docs/model/analytics.md).
extension ScenarioSchema {
    static let analytics: [Field] = [
        Field("enabled", .boolean(default: false), doc: "Simulate the Operational Info pipeline and add its results (summary `analytics`, monthly.csv, analytics_hourly.csv)."),
        Field("detections", .choice(default: "synthetic", allowed: ["synthetic", "simulated"]),
              doc: "`synthetic`: each app phone runs detections on its own schedule (`analytics.synthetic`), with the run's daily availability; `simulated`: the run's own chain drives the model: every completed key-index check of an app phone is a detection (on days the app can run), and a notification is reported at the first detection at or after it."),
        Field("p_owe", .number(default: 1, range: 0.0001...1), unit: "probability",
              doc: "p_OWE, sampling rate of Operational Info with Exposure (seed: as close to 1 as possible)."),
        Field("p_owoe", .number(default: 0.5, range: 0.0001...1), unit: "probability",
              doc: "p_OWOE, sampling rate of Operational Info without Exposure (server-configured; 0.5 is ENSim's choice)."),
        Field("window_s", .integer(default: 86_400, range: 60...2_678_400), unit: "seconds",
              doc: "Length of the monthly without-exposure window opening at T_OWOE + dT_OWOE (seed: 86,400 s)."),
        Field("uploads_per_token_per_kind", .integer(default: 2, range: 1...1_000), unit: "uploads",
              doc: "Uploads the service accepts per analytics token, with and without exposure each (seed: 2 + 2)."),
        Field("client_latency_min_ms", .integer(default: 50, range: 0...60_000), unit: "ms", doc: "Shortest one-way delay between a phone and the Analytics Service."),
        Field("client_latency_max_ms", .integer(default: 300, range: 0...60_000), unit: "ms", doc: "Longest one-way delay between a phone and the Analytics Service."),
        Field("ios", .section(ios, check: { v in
            let lo = v["device_check_latency_min_ms"]?.intValue ?? 0, hi = v["device_check_latency_max_ms"]?.intValue ?? 0
            return lo <= hi ? nil : "device_check_latency_min_ms (\(lo)) must not exceed device_check_latency_max_ms (\(hi))"
        }), doc: "Analytics tokens, Apple's DeviceCheck server and the service's race-condition defence."),
        Field("android", .section(android, check: { v in
            let lo = v["attestation_latency_min_ms"]?.intValue ?? 0, hi = v["attestation_latency_max_ms"]?.intValue ?? 0
            return lo <= hi ? nil : "attestation_latency_min_ms (\(lo)) must not exceed attestation_latency_max_ms (\(hi))"
        }), doc: "SafetyNet attestation and the service's replay checks."),
        Field("phones", .section(phones), doc: "Per-phone profile drawn for each app phone (own stream)."),
        Field("synthetic", .section(synthetic), doc: "Built-in detection source (`detections: synthetic`)."),
        Field("sweep", .section(sweep, check: { v in
            let lo = v["min_p_owoe"]?.doubleValue ?? 0, hi = v["max_p_owoe"]?.doubleValue ?? 0
            return lo <= hi ? nil : "min_p_owoe must not exceed max_p_owoe"
        }), doc: "Trade-off of p_OWOE against traffic and estimate error, written to sweep.csv: one attack-free model per value on the same detections (synthetic: reruns; simulated: fed the run's own detection runs beside the main model)."),
        Field("attacks", .section(attacks), doc: "Attackers polluting the analytics; all off by default. The summary reports each."),
    ]

    static let ios: [Field] = [
        Field("max_read_time_ms", .integer(default: 3_000, range: 0...600_000), unit: "ms",
              doc: "read_time ~ U[0, max_read_time] between the first and second read (immuni-backend-analytics READ_TIME: 3 s)."),
        Field("device_check_timeout_ms", .integer(default: 2_000, range: 1...600_000), unit: "ms",
              doc: "device_check_server_timeout: a worker abandons a DeviceCheck call after this long (2 s makes CHECK_TIME 7 s meet the bound exactly)."),
        Field("check_time_ms", .integer(default: 7_000, range: 0...3_600_000), unit: "ms",
              doc: "check_time between the first write and the third read; the seed requires ≥ max_read_time + 2·timeout (smaller values are allowed, to show the attack)."),
        Field("device_check_latency_min_ms", .integer(default: 20, range: 0...600_000), unit: "ms", doc: "Shortest one-way delay to the DeviceCheck server."),
        Field("device_check_latency_max_ms", .integer(default: 400, range: 0...600_000), unit: "ms", doc: "Longest one-way delay to the DeviceCheck server (a round trip over the timeout times out)."),
        Field("device_check_token_lifetime_s", .integer(default: 3_600, range: 1...86_400 * 30), unit: "seconds",
              doc: "DeviceCheck tokens are ephemeral: the server rejects them this long after issue (ENSim's assumption)."),
    ]

    static let android: [Field] = [
        Field("replay_window_s", .integer(default: 600, range: 1...86_400), unit: "seconds",
              doc: "The service rejects a salt seen within this window and attestations older than it (seed: 10 minutes)."),
        Field("quiet_after_install_h", .integer(default: 24, range: 0...720), unit: "hours",
              doc: "No upload within this time of the first configuration fetch, by server time (seed: 24 h)."),
        Field("attestation_latency_min_ms", .integer(default: 500, range: 0...600_000), unit: "ms", doc: "Shortest time the SafetyNet Attestation API takes."),
        Field("attestation_latency_max_ms", .integer(default: 3_000, range: 0...600_000), unit: "ms", doc: "Longest time the SafetyNet Attestation API takes."),
        share("non_genuine_fail_share", 1.0, "Share of attestations of non-genuine devices that fail (seed: no known bypass of hardware attestation)."),
    ]

    static let phones: [Field] = [
        share("genuine_share", 1.0, "Share of app phones that are genuine devices with an untampered app."),
        share("exposure_permission_share", 0.97, "Share with the exposure-notification permission (without it no detection runs)."),
        share("notification_permission_share", 0.9, "Share with the local-notification permission."),
        Field("install_spread_days", .integer(default: 0, range: 0...3650), unit: "days",
              doc: "Installs spread uniformly over this many days from the start (0: all installed at the start)."),
        Field("region_population", .section(ItalianRegions.all.map { r in
            Field(r.key, .integer(default: Int64(r.population), range: 0...100_000_000), unit: "people", doc: "\(r.name): weight of the region as province of domicile.")
        }), doc: "Regional weights for the area of domicile; default: ISTAT residents on 1 January 2020. Within the area each phone draws its province (107, Immuni's codes) by ISTAT residents."),
    ]

    static let synthetic: [Field] = [
        Field("ios_detection_period_s", .integer(default: 14_400, range: 600...604_800), unit: "seconds",
              doc: "Time between exposure detections on iOS (Immuni exposure_detection_period: 14,400 s)."),
        Field("android_detection_period_s", .integer(default: 14_400, range: 600...604_800), unit: "seconds",
              doc: "Time between exposure detections on Android."),
        share("deferral_share", 0.5, "Each detection is deferred by the OS by up to this share of the period."),
        Field("risky_exposure_per_day", .number(default: 0.002, range: 0...1), unit: "probability/day",
              doc: "Daily probability that a phone's detection finds a risky exposure."),
    ]

    static let sweep: [Field] = [
        Field("points", .integer(default: 0, range: 0...50), unit: "runs", doc: "p_OWOE values to sweep, evenly spaced from min to max (0: no sweep)."),
        Field("min_p_owoe", .number(default: 0.05, range: 0.0001...1), unit: "probability", doc: "Smallest p_OWOE of the sweep."),
        Field("max_p_owoe", .number(default: 1, range: 0.0001...1), unit: "probability", doc: "Largest p_OWOE of the sweep."),
    ]

    static let attacks: [Field] = [
        Field("ios_token_farm_devices", .integer(default: 0, range: 0...100_000), unit: "devices", doc: "Genuine iPhones an attacker uses to authorise as many analytics tokens as it can."),
        Field("ios_token_farm_requests_per_month", .integer(default: 60, range: 1...100_000), unit: "requests/month", doc: "Authorisation requests per farm device and month (evenly spaced)."),
        Field("ios_race_devices", .integer(default: 0, range: 0...100_000), unit: "devices", doc: "Genuine iPhones sending a burst of concurrent authorisations once a month (race condition)."),
        Field("ios_race_burst", .integer(default: 2, range: 2...1_000), unit: "requests", doc: "Concurrent requests per burst (different analytics tokens, same device)."),
        Field("ios_race_spread_ms", .integer(default: 500, range: 0...600_000), unit: "ms", doc: "Send times of a burst spread uniformly over this span."),
        Field("ios_replays_per_month", .integer(default: 0, range: 0...1_000_000), unit: "requests/month", doc: "Legitimate token requests intercepted and replayed (blacklists the victim)."),
        Field("ios_replay_delay_ms", .integer(default: 200, range: 0...600_000), unit: "ms", doc: "Delay of a replay after the original."),
        Field("android_replays_per_month", .integer(default: 0, range: 0...1_000_000), unit: "uploads/month", doc: "Legitimate Android uploads intercepted and replayed."),
        Field("android_replay_max_delay_s", .integer(default: 1_800, range: 0...86_400), unit: "seconds", doc: "Replay delay uniform in [0, this]: both sides of the 10-minute window."),
        Field("android_reinstall_devices", .integer(default: 0, range: 0...100_000), unit: "devices", doc: "Genuine Android devices reinstalling the app and changing the clock to upload more often."),
        Field("android_non_genuine_devices", .integer(default: 0, range: 0...100_000), unit: "devices", doc: "Rooted or emulated Android devices uploading every hour."),
    ]
}

extension AnalyticsParameters {
    /// From the resolved `analytics` block.
    init(scenario v: ScenarioValue) {
        func int(_ key: String) -> Int64 { v.at("analytics." + key)!.intValue! }
        func number(_ key: String) -> Double { v.at("analytics." + key)!.doubleValue! }
        self.init()
        enabled = v.at("analytics.enabled")!.boolValue!
        detections = DetectionSource(rawValue: v.at("analytics.detections")!.textValue!)!
        pWithExposure = number("p_owe")
        pWithoutExposure = number("p_owoe")
        windowSeconds = int("window_s")
        uploadsPerTokenPerKind = Int(int("uploads_per_token_per_kind"))
        clientLatencyMs = int("client_latency_min_ms")...int("client_latency_max_ms")
        maxReadTimeMs = int("ios.max_read_time_ms")
        deviceCheckTimeoutMs = int("ios.device_check_timeout_ms")
        checkTimeMs = int("ios.check_time_ms")
        deviceCheckLatencyMs = int("ios.device_check_latency_min_ms")...int("ios.device_check_latency_max_ms")
        deviceCheckTokenLifetimeMs = int("ios.device_check_token_lifetime_s") * 1000
        replayWindowMs = int("android.replay_window_s") * 1000
        androidQuietAfterInstallSeconds = int("android.quiet_after_install_h") * 3600
        attestationLatencyMs = int("android.attestation_latency_min_ms")...int("android.attestation_latency_max_ms")
        nonGenuineFailShare = number("android.non_genuine_fail_share")
        genuineShare = number("phones.genuine_share")
        exposurePermissionShare = number("phones.exposure_permission_share")
        notificationPermissionShare = number("phones.notification_permission_share")
        installSpreadDays = Int(int("phones.install_spread_days"))
        regionWeights = ItalianRegions.all.map { Double(int("phones.region_population." + $0.key)) }
        iOSDetectionPeriodSeconds = int("synthetic.ios_detection_period_s")
        androidDetectionPeriodSeconds = int("synthetic.android_detection_period_s")
        detectionDeferralShare = number("synthetic.deferral_share")
        riskyExposurePerDay = number("synthetic.risky_exposure_per_day")
        let points = Int(int("sweep.points")), lo = number("sweep.min_p_owoe"), hi = number("sweep.max_p_owoe")
        sweepPWithoutExposure = points == 0 ? [] : (0..<points).map { points == 1 ? hi : lo + (hi - lo) * Double($0) / Double(points - 1) }
        attacks.iOSTokenFarmDevices = Int(int("attacks.ios_token_farm_devices"))
        attacks.iOSTokenFarmRequestsPerMonth = Int(int("attacks.ios_token_farm_requests_per_month"))
        attacks.iOSRaceDevices = Int(int("attacks.ios_race_devices"))
        attacks.iOSRaceBurst = Int(int("attacks.ios_race_burst"))
        attacks.iOSRaceSpreadMs = int("attacks.ios_race_spread_ms")
        attacks.iOSReplaysPerMonth = Int(int("attacks.ios_replays_per_month"))
        attacks.iOSReplayDelayMs = int("attacks.ios_replay_delay_ms")
        attacks.androidReplaysPerMonth = Int(int("attacks.android_replays_per_month"))
        attacks.androidReplayMaxDelayMs = int("attacks.android_replay_max_delay_s") * 1000
        attacks.androidReinstallDevices = Int(int("attacks.android_reinstall_devices"))
        attacks.androidNonGenuineDevices = Int(int("attacks.android_non_genuine_devices"))
    }
}
