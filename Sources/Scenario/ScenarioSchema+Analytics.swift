import HealthBackend
import Simulation

/// The `analytics` block: Immuni's privacy-preserving analytics (see docs/model/analytics.md).
extension ScenarioSchema {
    static let analytics: [Field] = [
        .boolean("enabled", \S.analytics.enabled, doc: """
            Simulate the Operational Info pipeline and add its results (summary `analytics`, monthly.csv, \
            analytics_hourly.csv).
            """),
        .choice("detections", \S.analytics.detections, doc: """
            `synthetic`: each app phone runs detections on its own schedule (`analytics.synthetic`), with the run's daily \
            availability; `simulated`: the run's own chain drives the model: every completed key-index check of an app phone is a \
            detection (on days the app can run), and a notification is reported at the first detection at or after it.
            """),
        .number("p_owe", \S.analytics.pWithExposure, range: 0.0001...1, unit: "probability",
                doc: "p_OWE, sampling rate of Operational Info with Exposure (seed: as close to 1 as possible)."),
        .number("p_owoe", \S.analytics.pWithoutExposure, range: 0.0001...1, unit: "probability",
                doc: "p_OWOE, sampling rate of Operational Info without Exposure (server-configured; 0.5 is ENSim's choice)."),
        .integer("window_s", \S.analytics.windowSeconds, range: 60...2_678_400, unit: "seconds",
                 doc: "Length of the monthly without-exposure window opening at T_OWOE + dT_OWOE (seed: 86,400 s)."),
        .integer("uploads_per_token_per_kind", \S.analytics.uploadsPerTokenPerKind, range: 1...1_000, unit: "uploads",
                 doc: "Uploads the service accepts per analytics token, with and without exposure each (seed: 2 + 2)."),
        .integer("client_latency_min_ms", \S.analytics.clientLatencyMinMs, range: 0...60_000, unit: "ms",
                 doc: "Shortest one-way delay between a phone and the Analytics Service."),
        .integer("client_latency_max_ms", \S.analytics.clientLatencyMaxMs, range: 0...60_000, unit: "ms",
                 doc: "Longest one-way delay between a phone and the Analytics Service."),
        .section("ios", ios, check: { s in
            let (lo, hi) = (s.analytics.deviceCheckLatencyMinMs, s.analytics.deviceCheckLatencyMaxMs)
            return lo <= hi ? nil : "device_check_latency_min_ms (\(lo)) must not exceed device_check_latency_max_ms (\(hi))"
        }, doc: "Analytics tokens, Apple's DeviceCheck server and the service's race-condition defence."),
        .section("android", android, check: { s in
            let (lo, hi) = (s.analytics.attestationLatencyMinMs, s.analytics.attestationLatencyMaxMs)
            return lo <= hi ? nil : "attestation_latency_min_ms (\(lo)) must not exceed attestation_latency_max_ms (\(hi))"
        }, doc: "SafetyNet attestation and the service's replay checks."),
        .section("phones", phones, doc: "Per-phone profile drawn for each app phone (own stream)."),
        .section("synthetic", synthetic, doc: "Built-in detection source (`detections: synthetic`)."),
        .section("sweep", sweep, check: { s in
            s.analyticsSweep.minPWithoutExposure <= s.analyticsSweep.maxPWithoutExposure ? nil : "min_p_owoe must not exceed max_p_owoe"
        }, doc: """
            Trade-off of p_OWOE against traffic and estimate error, written to sweep.csv: one attack-free model per value on the \
            same detections (synthetic: reruns; simulated: fed the run's own detection runs beside the main model).
            """),
        .section("attacks", attacks, doc: "Attackers polluting the analytics; all off by default. The summary reports each."),
    ]

    static let ios: [Field] = [
        .integer("max_read_time_ms", \S.analytics.maxReadTimeMs, range: 0...600_000, unit: "ms",
                 doc: "read_time ~ U[0, max_read_time] between the first and second read (immuni-backend-analytics READ_TIME: 3 s)."),
        .integer("device_check_timeout_ms", \S.analytics.deviceCheckTimeoutMs, range: 1...600_000, unit: "ms", doc: """
            device_check_server_timeout: a worker abandons a DeviceCheck call after this long (2 s makes CHECK_TIME 7 s meet the \
            bound exactly).
            """),
        .integer("check_time_ms", \S.analytics.checkTimeMs, range: 0...3_600_000, unit: "ms", doc: """
            check_time between the first write and the third read; the seed requires ≥ max_read_time + 2·timeout (smaller values \
            are allowed, to show the attack).
            """),
        .integer("device_check_latency_min_ms", \S.analytics.deviceCheckLatencyMinMs, range: 0...600_000, unit: "ms",
                 doc: "Shortest one-way delay to the DeviceCheck server."),
        .integer("device_check_latency_max_ms", \S.analytics.deviceCheckLatencyMaxMs, range: 0...600_000, unit: "ms",
                 doc: "Longest one-way delay to the DeviceCheck server (a round trip over the timeout times out)."),
        .integer("device_check_token_lifetime_s", \S.analytics.deviceCheckTokenLifetimeMs, range: 1...86_400 * 30, scale: 1_000,
                 unit: "seconds",
                 doc: "DeviceCheck tokens are ephemeral: the server rejects them this long after issue (ENSim's assumption)."),
    ]

    static let android: [Field] = [
        .integer("replay_window_s", \S.analytics.replayWindowMs, range: 1...86_400, scale: 1_000, unit: "seconds",
                 doc: "The service rejects a salt seen within this window and attestations older than it (seed: 10 minutes)."),
        .integer("quiet_after_install_h", \S.analytics.androidQuietAfterInstallSeconds, range: 0...720, scale: 3_600, unit: "hours",
                 doc: "No upload within this time of the first configuration fetch, by server time (seed: 24 h)."),
        .integer("attestation_latency_min_ms", \S.analytics.attestationLatencyMinMs, range: 0...600_000, unit: "ms",
                 doc: "Shortest time the SafetyNet Attestation API takes."),
        .integer("attestation_latency_max_ms", \S.analytics.attestationLatencyMaxMs, range: 0...600_000, unit: "ms",
                 doc: "Longest time the SafetyNet Attestation API takes."),
        .share("non_genuine_fail_share", \S.analytics.nonGenuineFailShare,
               "Share of attestations of non-genuine devices that fail (seed: no known bypass of hardware attestation)."),
    ]

    static let phones: [Field] = [
        .share("genuine_share", \S.analytics.genuineShare, "Share of app phones that are genuine devices with an untampered app."),
        .share("exposure_permission_share", \S.analytics.exposurePermissionShare,
               "Share with the exposure-notification permission (without it no detection runs)."),
        .share("notification_permission_share", \S.analytics.notificationPermissionShare, "Share with the local-notification permission."),
        .integer("install_spread_days", \S.analytics.installSpreadDays, range: 0...3650, unit: "days",
                 doc: "Installs spread uniformly over this many days from the start (0: all installed at the start)."),
        .section("region_population", ItalianRegions.all.enumerated().map { i, r in
            Field.integer(r.key, range: 0...100_000_000, unit: "people", doc: "\(r.name): weight of the region as province of domicile.",
                          get: { Int64($0.analytics.regionWeights[i]) }, set: { $0.analytics.regionWeights[i] = Double($1) })
        }, check: { s in
            s.analytics.regionWeights.contains(where: { $0 > 0 }) ? nil : "at least one region must have a positive weight"
        }, doc: """
            Regional weights for the area of domicile; default: ISTAT residents on 1 January 2020. Within the area each phone \
            draws its province (107, Immuni's codes) by ISTAT residents.
            """),
    ]

    static let synthetic: [Field] = [
        .integer("ios_detection_period_s", \S.analytics.iOSDetectionPeriodSeconds, range: 600...604_800, unit: "seconds",
                 doc: "Time between exposure detections on iOS (Immuni exposure_detection_period: 14,400 s)."),
        .integer("android_detection_period_s", \S.analytics.androidDetectionPeriodSeconds, range: 600...604_800, unit: "seconds",
                 doc: "Time between exposure detections on Android."),
        .share("deferral_share", \S.analytics.detectionDeferralShare,
               "Each detection is deferred by the OS by up to this share of the period."),
        .number("risky_exposure_per_day", \S.analytics.riskyExposurePerDay, range: 0...1, unit: "probability/day",
                doc: "Daily probability that a phone's detection finds a risky exposure."),
    ]

    static let sweep: [Field] = [
        .integer("points", \S.analyticsSweep.points, range: 0...50, unit: "runs",
                 doc: "p_OWOE values to sweep, evenly spaced from min to max (0: no sweep)."),
        .number("min_p_owoe", \S.analyticsSweep.minPWithoutExposure, range: 0.0001...1, unit: "probability",
                doc: "Smallest p_OWOE of the sweep."),
        .number("max_p_owoe", \S.analyticsSweep.maxPWithoutExposure, range: 0.0001...1, unit: "probability",
                doc: "Largest p_OWOE of the sweep."),
    ]

    static let attacks: [Field] = [
        .integer("ios_token_farm_devices", \S.analytics.attacks.iOSTokenFarmDevices, range: 0...100_000, unit: "devices",
                 doc: "Genuine iPhones an attacker uses to authorise as many analytics tokens as it can."),
        .integer("ios_token_farm_requests_per_month", \S.analytics.attacks.iOSTokenFarmRequestsPerMonth, range: 1...100_000,
                 unit: "requests/month", doc: "Authorisation requests per farm device and month (evenly spaced)."),
        .integer("ios_race_devices", \S.analytics.attacks.iOSRaceDevices, range: 0...100_000, unit: "devices",
                 doc: "Genuine iPhones sending a burst of concurrent authorisations once a month (race condition)."),
        .integer("ios_race_burst", \S.analytics.attacks.iOSRaceBurst, range: 2...1_000, unit: "requests",
                 doc: "Concurrent requests per burst (different analytics tokens, same device)."),
        .integer("ios_race_spread_ms", \S.analytics.attacks.iOSRaceSpreadMs, range: 0...600_000, unit: "ms",
                 doc: "Send times of a burst spread uniformly over this span."),
        .integer("ios_replays_per_month", \S.analytics.attacks.iOSReplaysPerMonth, range: 0...1_000_000, unit: "requests/month",
                 doc: "Legitimate token requests intercepted and replayed (blacklists the victim)."),
        .integer("ios_replay_delay_ms", \S.analytics.attacks.iOSReplayDelayMs, range: 0...600_000, unit: "ms",
                 doc: "Delay of a replay after the original."),
        .integer("android_replays_per_month", \S.analytics.attacks.androidReplaysPerMonth, range: 0...1_000_000, unit: "uploads/month",
                 doc: "Legitimate Android uploads intercepted and replayed."),
        .integer("android_replay_max_delay_s", \S.analytics.attacks.androidReplayMaxDelayMs, range: 0...86_400, scale: 1_000,
                 unit: "seconds", doc: "Replay delay uniform in [0, this]: both sides of the 10-minute window."),
        .integer("android_reinstall_devices", \S.analytics.attacks.androidReinstallDevices, range: 0...100_000, unit: "devices",
                 doc: "Genuine Android devices reinstalling the app and changing the clock to upload more often."),
        .integer("android_non_genuine_devices", \S.analytics.attacks.androidNonGenuineDevices, range: 0...100_000, unit: "devices",
                 doc: "Rooted or emulated Android devices uploading every hour."),
    ]
}
