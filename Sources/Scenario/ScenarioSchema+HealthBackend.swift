import Foundation
import Simulation

extension ScenarioSchema {
    static let health: [Field] = [
        Field("cases_per_day", .number(default: 1, range: 0...1_000_000), unit: "results/day",
              doc: "Positive test results per day in the contact population (Poisson mean); ignored when `cases_csv` is set."),
        Field("cases_csv", .text(default: ""),
              doc: "CSV `date,cases` with one row per simulated day (path relative to the scenario file), e.g. `data/cwa-cases-per-day.csv`; empty: use `cases_per_day`."),
        Field("cases_csv_scale", .number(default: 1, range: 0...1_000_000), unit: "factor",
              doc: "Multiplies the CSV's counts, e.g. contact population / national population."),
        share("asymptomatic_share", 0.3, "Share of cases without symptoms (no onset date; infectious from a few days before the test)."),
        Field("latent_period_days_mean", .number(default: 3, range: 0...30), unit: "days",
              doc: "Mean delay from infection to the start of infectiousness (gamma); with 2 presymptomatic days the mean incubation is 5 days."),
        Field("latent_period_days_sd", .number(default: 1.5, range: 0...30), unit: "days", doc: "Standard deviation of that delay."),
        Field("presymptomatic_days", .integer(default: 2, range: 0...14), unit: "days",
              doc: "Days before symptom onset that a case is infectious."),
        Field("onset_to_test_days_mean", .number(default: 2, range: 0...30), unit: "days", doc: "Mean delay from symptom onset (or infectiousness) to the test (gamma)."),
        Field("onset_to_test_days_sd", .number(default: 1.5, range: 0...30), unit: "days", doc: "Standard deviation of that delay."),
        Field("result_delay_hours_mean", .number(default: 30, range: 0...720), unit: "hours", doc: "Mean delay from test to result (gamma)."),
        Field("result_delay_hours_sd", .number(default: 15, range: 0...720), unit: "hours", doc: "Standard deviation of that delay."),
        share("upload_consent_share", 0.6, "Share of app users with a positive result who agree to upload their keys."),
        Field("consent_delay_hours_mean", .number(default: 4, range: 0...720), unit: "hours", doc: "Mean delay from result in the app (or operator call) to the start of the upload (gamma)."),
        Field("consent_delay_hours_sd", .number(default: 4, range: 0...720), unit: "hours", doc: "Standard deviation of that delay."),
        share("verification_dropout_share", 0.05, "Share of consenting users lost before verification completes."),
        Field("national_uploads_per_day", .number(default: 0, range: 0...10_000_000), unit: "uploads/day",
              doc: "Uploads from the rest of the country (random keys, uploader −1), so packages have national size."),
    ]

    static let backend: [Field] = [
        Field("flavor", .choice(default: "cwa", allowed: ["cwa", "immuni"]),
              doc: "`cwa`: QR/teleTAN → TAN, hourly + daily packages; `immuni`: operator-authorised OTP, TEK chunks."),
        Field("max_keys_per_upload", .integer(default: 0, range: 0...1000), unit: "keys",
              doc: "Keys accepted per upload; 0: the flavor's server default (CWA 14, Immuni 30)."),
        share("faulty_upload_share", 0.01, "Share of real uploads from faulty clients (duplicate, malformed, future or overlapping key); the server rejects them."),
        share("credential_reuse_share", 0.02, "Share of successful uploads repeated with the same TAN/OTP (e.g. after a timeout); rejected."),
        share("teletan_share", 0.15, "CWA: share of positives without a QR code who get a teleTAN through the hotline."),
        Field("hotline_delay_hours_mean", .number(default: 12, range: 0...720), unit: "hours", doc: "CWA: mean delay from result to the hotline call (gamma)."),
        Field("hotline_delay_hours_sd", .number(default: 8, range: 0...720), unit: "hours", doc: "Standard deviation of that delay."),
        Field("poll_interval_minutes", .integer(default: 120, range: 1...1440), unit: "minutes", doc: "CWA: the app polls the test result this often (polling, not push)."),
        Field("otp_validity_seconds", .integer(default: 150, range: 1...86_400), unit: "seconds", doc: "Immuni: OTP validity after authorisation (OTP_EXPIRATION_SECONDS)."),
        share("otp_typo_share", 0.03, "Immuni: share of OTPs the health operator mistypes."),
        Field("otp_check_delay_seconds_mean", .number(default: 60, range: 0...3600), unit: "seconds", doc: "Immuni: mean delay from authorisation to check-otp (gamma)."),
        Field("otp_check_delay_seconds_sd", .number(default: 45, range: 0...3600), unit: "seconds", doc: "Standard deviation of that delay."),
        Field("otp_upload_delay_seconds_mean", .number(default: 20, range: 0...3600), unit: "seconds", doc: "Immuni: mean delay from check-otp to upload (gamma)."),
        Field("otp_upload_delay_seconds_sd", .number(default: 10, range: 0...3600), unit: "seconds", doc: "Standard deviation of that delay."),
        Field("otp_max_attempts", .integer(default: 3, range: 1...20), unit: "attempts", doc: "Immuni: OTPs a user tries before giving up."),
        Field("dummy_uploads_per_phone_day", .number(default: 0.1, range: 0...100), unit: "sessions/phone/day",
              doc: "Dummy upload sessions from healthy phones (CWA fake requests, Immuni-Dummy-Data); accepted and discarded, counted in load and bytes."),
        Field("immuni_upload_target_bytes", .integer(default: 110_000, range: 0...10_000_000), unit: "bytes",
              doc: "Immuni: upload bodies (real and dummy) are padded to this size (the app's teks_packet_size)."),
        Field("cwa_padded_key_count", .integer(default: 14, range: 0...100), unit: "keys",
              doc: "CWA: the app pads 28 bytes per key short of this (MIN_KEY_COUNT_FOR_SUBMISSION; 15 in later versions)."),
        Field("min_keys_per_package", .integer(default: 140, range: 0...1_000_000), unit: "keys",
              doc: "CWA: keys an hourly package needs (shifting-policy-threshold); otherwise an empty file and the keys wait."),
        Field("max_keys_per_package", .integer(default: 0, range: 0...100_000_000), unit: "keys",
              doc: "Keys per file; 0: the flavor's default (CWA 600,000 per package, Immuni 10,000 per chunk)."),
        Field("expiry_policy_minutes", .integer(default: 120, range: 0...10_000), unit: "minutes",
              doc: "CWA: a key is distributed only this long after the end of its rolling period."),
        Field("key_padding_multiplier", .integer(default: 1, range: 1...100), unit: "factor",
              doc: "CWA random-key-padding-multiplier: N stores N − 1 random keys per real key."),
        Field("batch_period_hours", .integer(default: 24, range: 1...168), unit: "hours", doc: "Immuni: hours between TEK chunk batches."),
        Field("retention_days", .integer(default: 14, range: 1...365), unit: "days", doc: "Packages and unpublished keys are deleted after this many days."),
    ]

    /// Makes `health.cases_csv` relative to the scenario file and checks that it loads.
    static func resolvingPaths(_ v: ScenarioValue, file: String) throws(ScenarioError) -> ScenarioValue {
        guard let path = v.at("health.cases_csv")?.textValue, !path.isEmpty else { return v }
        let base = URL(fileURLWithPath: file).deletingLastPathComponent()
        let resolved = path.hasPrefix("/") ? path : base.appendingPathComponent(path).standardizedFileURL.path
        do { _ = try CaseSeries.load(path: resolved) } catch {
            throw ScenarioError(problems: [ScenarioProblem(file: file, path: "health.cases_csv", message: error.description)])
        }
        return v.replacing(["health", "cases_csv"], with: .text(resolved))
    }
}

extension SimulationConfig {
    static func health(_ v: ScenarioValue) -> HealthParameters {
        var h = HealthParameters()
        func number(_ key: String) -> Double { v.at("health." + key)!.doubleValue! }
        h.casesPerDay = number("cases_per_day")
        let csv = v.at("health.cases_csv")!.textValue!
        h.casesCSV = csv.isEmpty ? nil : csv
        h.casesCSVScale = number("cases_csv_scale")
        h.asymptomaticShare = number("asymptomatic_share")
        h.latentPeriodDays = Delay(mean: number("latent_period_days_mean"), sd: number("latent_period_days_sd"))
        h.presymptomaticDays = Int(v.at("health.presymptomatic_days")!.intValue!)
        h.onsetToTest = Delay(mean: number("onset_to_test_days_mean"), sd: number("onset_to_test_days_sd"))
        h.resultDelayHours = Delay(mean: number("result_delay_hours_mean"), sd: number("result_delay_hours_sd"))
        h.uploadConsentShare = number("upload_consent_share")
        h.consentDelayHours = Delay(mean: number("consent_delay_hours_mean"), sd: number("consent_delay_hours_sd"))
        h.verificationDropoutShare = number("verification_dropout_share")
        h.nationalUploadsPerDay = number("national_uploads_per_day")
        return h
    }

    static func backend(_ v: ScenarioValue, exports: Bool) -> BackendParameters {
        var b = BackendParameters()
        func number(_ key: String) -> Double { v.at("backend." + key)!.doubleValue! }
        func int(_ key: String) -> Int { Int(v.at("backend." + key)!.intValue!) }
        b.flavor = BackendFlavor(rawValue: v.at("backend.flavor")!.textValue!)!
        b.maxKeysPerUpload = int("max_keys_per_upload") == 0 ? nil : int("max_keys_per_upload")
        b.faultyUploadShare = number("faulty_upload_share")
        b.credentialReuseShare = number("credential_reuse_share")
        b.teleTANShare = number("teletan_share")
        b.hotlineDelayHours = Delay(mean: number("hotline_delay_hours_mean"), sd: number("hotline_delay_hours_sd"))
        b.pollIntervalMinutes = int("poll_interval_minutes")
        b.otpValiditySeconds = Int64(int("otp_validity_seconds"))
        b.otpTypoShare = number("otp_typo_share")
        b.otpCheckDelaySeconds = Delay(mean: number("otp_check_delay_seconds_mean"), sd: number("otp_check_delay_seconds_sd"))
        b.otpUploadDelaySeconds = Delay(mean: number("otp_upload_delay_seconds_mean"), sd: number("otp_upload_delay_seconds_sd"))
        b.otpMaxAttempts = int("otp_max_attempts")
        b.dummyUploadsPerPhoneDay = number("dummy_uploads_per_phone_day")
        b.immuniUploadTargetBytes = int("immuni_upload_target_bytes")
        b.cwaPaddedKeyCount = int("cwa_padded_key_count")
        b.minKeysPerPackage = int("min_keys_per_package")
        b.maxKeysPerPackage = int("max_keys_per_package") == 0 ? nil : int("max_keys_per_package")
        b.expiryPolicyMinutes = int("expiry_policy_minutes")
        b.keyPaddingMultiplier = int("key_padding_multiplier")
        b.batchPeriodHours = int("batch_period_hours")
        b.retentionDays = int("retention_days")
        b.keepExports = exports
        return b
    }
}
