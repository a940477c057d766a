import Foundation
import HealthBackend
import Simulation

extension ScenarioSchema {
    static let health: [Field] = [
        .number("cases_per_day", \S.health.casesPerDay, range: 0...1_000_000, unit: "results/day",
                doc: "Positive test results per day in the contact population (Poisson mean); ignored when `cases_csv` is set."),
        .text("cases_csv", doc: """
            CSV `date,cases` with one row per simulated day (path relative to the scenario file), e.g. \
            `data/cwa-cases-per-day.csv`; empty: use `cases_per_day`.
            """, get: { $0.health.casesCSV ?? "" }, set: { $0.health.casesCSV = $1.isEmpty ? nil : $1 }),
        .number("cases_csv_scale", \S.health.casesCSVScale, range: 0...1_000_000, unit: "factor",
                doc: "Multiplies the CSV's counts, e.g. contact population / national population; no simulated day may then exceed `population.size`."),
        .share("asymptomatic_share", \S.health.asymptomaticShare,
               "Share of cases without symptoms (no onset date; infectious from a few days before the test)."),
        .number("latent_period_days_mean", \S.health.latentPeriodDays.mean, range: 0...30, unit: "days", doc: """
            Mean delay from infection to the start of infectiousness (gamma); with 2 presymptomatic days the mean incubation is \
            5 days.
            """),
        .number("latent_period_days_sd", \S.health.latentPeriodDays.sd, range: 0...30, unit: "days",
                doc: "Standard deviation of that delay."),
        .integer("presymptomatic_days", \S.health.presymptomaticDays, range: 0...14, unit: "days",
                 doc: "Days before symptom onset that a case is infectious."),
        .number("onset_to_test_days_mean", \S.health.onsetToTest.mean, range: 0...30, unit: "days",
                doc: "Mean delay from symptom onset (or infectiousness) to the test (gamma)."),
        .number("onset_to_test_days_sd", \S.health.onsetToTest.sd, range: 0...30, unit: "days",
                doc: "Standard deviation of that delay."),
        .number("result_delay_hours_mean", \S.health.resultDelayHours.mean, range: 0...720, unit: "hours",
                doc: "Mean delay from test to result (gamma)."),
        .number("result_delay_hours_sd", \S.health.resultDelayHours.sd, range: 0...720, unit: "hours",
                doc: "Standard deviation of that delay."),
        .share("upload_consent_share", \S.health.uploadConsentShare,
               "Share of app users with a positive result who agree to upload their keys."),
        .number("consent_delay_hours_mean", \S.health.consentDelayHours.mean, range: 0...720, unit: "hours",
                doc: "Mean delay from result in the app (or operator call) to the start of the upload (gamma)."),
        .number("consent_delay_hours_sd", \S.health.consentDelayHours.sd, range: 0...720, unit: "hours",
                doc: "Standard deviation of that delay."),
        .share("verification_dropout_share", \S.health.verificationDropoutShare,
               "Share of consenting users lost before verification completes."),
        .number("national_uploads_per_day", \S.health.nationalUploadsPerDay, range: 0...10_000_000, unit: "uploads/day",
                doc: "Uploads from the rest of the country (random keys, uploader −1), so packages have national size."),
    ]

    /// A count where 0 stands for nil (the flavor's default).
    static func countOrDefault(_ name: String, _ path: Field.Path<Int?>, range: ClosedRange<Int64>, unit: String, doc: String) -> Field {
        .integer(name, range: range, unit: unit, doc: doc, get: { Int64($0[keyPath: path] ?? 0) },
                 set: { $0[keyPath: path] = $1 == 0 ? nil : Int(clamping: $1) })
    }

    static let backend: [Field] = [
        .choice("flavor", \S.backend.flavor,
                doc: "`cwa`: QR/teleTAN → TAN, hourly + daily packages; `immuni`: operator-authorised OTP, TEK chunks."),
        countOrDefault("max_keys_per_upload", \S.backend.maxKeysPerUpload, range: 0...1000, unit: "keys",
                       doc: "Keys accepted per upload; 0: the flavor's server default (CWA 14, Immuni 30)."),
        .share("faulty_upload_share", \S.backend.faultyUploadShare, """
            Share of real uploads from faulty clients (duplicate, malformed, future or overlapping key); the server rejects them.
            """),
        .share("credential_reuse_share", \S.backend.credentialReuseShare,
               "Share of successful uploads repeated with the same TAN/OTP (e.g. after a timeout); rejected."),
        .share("teletan_share", \S.backend.teleTANShare,
               "CWA: share of positives without a QR code who get a teleTAN through the hotline."),
        .number("hotline_delay_hours_mean", \S.backend.hotlineDelayHours.mean, range: 0...720, unit: "hours",
                doc: "CWA: mean delay from result to the hotline call (gamma)."),
        .number("hotline_delay_hours_sd", \S.backend.hotlineDelayHours.sd, range: 0...720, unit: "hours",
                doc: "Standard deviation of that delay."),
        .integer("poll_interval_minutes", \S.backend.pollIntervalMinutes, range: 1...1440, unit: "minutes",
                 doc: "CWA: the app polls the test result this often (polling, not push)."),
        .section("upload_failure", [
            .share("share", \S.backend.uploadFailureShare, """
                Share of a case's upload attempts lost in the network (the request never reaches the server; the apps ask the user \
                to try again, with no store and forward: cwa-app-android#2182). Assumption; 0 (default): off, outputs as before.
                """),
            .number("retry_delay_minutes_mean", \S.backend.uploadRetryDelayMinutes.mean, range: 0...10_080, unit: "minutes",
                    doc: "Mean delay from a failed attempt to the user's next one (gamma; assumption)."),
            .number("retry_delay_minutes_sd", \S.backend.uploadRetryDelayMinutes.sd, range: 0...10_080, unit: "minutes",
                    doc: "Standard deviation of that delay."),
            .integer("max_attempts", \S.backend.uploadMaxAttempts, range: 1...20, unit: "attempts", doc: """
                Upload attempts, the first included, before the user gives up (counted as health.funnel.lost_upload_failed). \
                CWA keeps the TAN of a failed attempt for the next (cwa-app-android SubmissionService, June 2020); Immuni's OTP \
                expires 150 s after authorisation, so a later retry needs a new OTP from the operator.
                """),
        ], doc: "A case's first key upload lost in the network and tried again (summary backend.upload_failures counts them)."),
        .share("cwa_token_loss_share", \S.backend.cwaTokenLossShare, """
            CWA: share of uploading users whose app lost its registration token (reinstalled, reset, new phone) before the \
            upload; they call the hotline for a teleTAN (CWA solution architecture). Counted in health.funnel.teletan and \
            backend.teletan_after_token_loss. Assumption; 0 (default): off.
            """),
        .section("immuni_keys_from_onset", [
            .boolean("enabled", \S.backend.immuniKeysFromOnset, doc: """
                Immuni: the ingestion service keeps only the keys of days from `days_before_symptoms` before symptoms_started_on \
                (the onset the operator enters with the OTP; the swab day without symptoms) and gives them the highest \
                transmission risk level, 8 (immuni-backend-exposure-ingestion, extract_keys_with_risk_level_from_upload). \
                Off (default): every accepted key is published, as before.
                """),
            .integer("days_before_symptoms", \S.backend.immuniDaysBeforeSymptoms, range: 0...14, unit: "days",
                     doc: "Immuni DAYS_BEFORE_SYMPTOMS_TO_CONSIDER_KEY_AT_RISK (2)."),
        ], doc: "Immuni: keys published from symptoms_started_on (summary backend.keys.dropped_before_onset counts the rest)."),
        .integer("otp_validity_seconds", \S.backend.otpValiditySeconds, range: 1...86_400, unit: "seconds",
                 doc: "Immuni: OTP validity after authorisation (OTP_EXPIRATION_SECONDS)."),
        .share("otp_typo_share", \S.backend.otpTypoShare, "Immuni: share of OTPs the health operator mistypes."),
        .number("otp_check_delay_seconds_mean", \S.backend.otpCheckDelaySeconds.mean, range: 0...3600, unit: "seconds",
                doc: "Immuni: mean delay from authorisation to check-otp (gamma)."),
        .number("otp_check_delay_seconds_sd", \S.backend.otpCheckDelaySeconds.sd, range: 0...3600, unit: "seconds",
                doc: "Standard deviation of that delay."),
        .number("otp_upload_delay_seconds_mean", \S.backend.otpUploadDelaySeconds.mean, range: 0...3600, unit: "seconds",
                doc: "Immuni: mean delay from check-otp to upload (gamma)."),
        .number("otp_upload_delay_seconds_sd", \S.backend.otpUploadDelaySeconds.sd, range: 0...3600, unit: "seconds",
                doc: "Standard deviation of that delay."),
        .integer("otp_max_attempts", \S.backend.otpMaxAttempts, range: 1...20, unit: "attempts",
                 doc: "Immuni: OTPs a user tries before giving up."),
        .number("dummy_uploads_per_phone_day", \S.backend.dummyUploadsPerPhoneDay, range: 0...100, unit: "sessions/phone/day", doc: """
            Dummy upload sessions from healthy phones (CWA fake requests, Immuni-Dummy-Data); accepted and discarded, counted in \
            load and bytes.
            """),
        .integer("immuni_upload_target_bytes", \S.backend.immuniUploadTargetBytes, range: 0...10_000_000, unit: "bytes",
                 doc: "Immuni: upload bodies (real and dummy) are padded to this size (the app's teks_packet_size)."),
        .integer("cwa_padded_key_count", \S.backend.cwaPaddedKeyCount, range: 0...100, unit: "keys",
                 doc: "CWA: the app pads 28 bytes per key short of this (MIN_KEY_COUNT_FOR_SUBMISSION; 15 in later versions)."),
        .integer("min_keys_per_package", \S.backend.minKeysPerPackage, range: 0...1_000_000, unit: "keys",
                 doc: "CWA: keys an hourly package needs (shifting-policy-threshold); otherwise an empty file and the keys wait."),
        countOrDefault("max_keys_per_package", \S.backend.maxKeysPerPackage, range: 0...100_000_000, unit: "keys",
                       doc: "Keys per file; 0: the flavor's default (CWA 600,000 per package, Immuni 10,000 per chunk)."),
        .integer("expiry_policy_minutes", \S.backend.expiryPolicyMinutes, range: 0...10_000, unit: "minutes",
                 doc: "CWA: a key is distributed only this long after the end of its rolling period."),
        .integer("key_padding_multiplier", \S.backend.keyPaddingMultiplier, range: 1...100, unit: "factor",
                 doc: "CWA random-key-padding-multiplier: N stores N − 1 random keys per real key."),
        .integer("batch_period_hours", \S.backend.batchPeriodHours, range: 1...168, unit: "hours",
                 doc: "Immuni: hours between TEK chunk batches."),
        .integer("retention_days", \S.backend.retentionDays, range: 1...365, unit: "days",
                 doc: "Packages and unpublished keys are deleted after this many days."),
        .section("efgs", [
            .number("keys_per_day", \S.backend.efgsKeysPerDay, range: 0...100_000_000, unit: "keys/day", doc: """
                Keys from other countries' backends (European Federation Gateway Service) published in the national packages \
                (Poisson per hour, random keys that match no phone of the contact population); 0 = none. CWA's EUR package \
                carried around 10,000 a day in January 2021 (cwa-documentation issue "Questions on the downloaded keys").
                """),
        ], doc: "Cross-border key exchange (CWA seed: \"Those numbers exclude possible interoperability with other countries\")."),
    ]

    /// Makes `health.cases_csv` relative to the scenario file and checks that it loads.
    static func resolvingPaths(_ settings: inout ScenarioSettings, file: String) throws(ScenarioError) {
        guard let path = settings.health.casesCSV, !path.isEmpty else { return }
        let base = URL(fileURLWithPath: file).deletingLastPathComponent()
        let resolved = path.hasPrefix("/") ? path : base.appendingPathComponent(path).standardizedFileURL.path
        // Whatever validates must run: the file must have a row for every simulated day.
        do {
            let series = try CaseSeries.load(path: resolved)
            try series.checkCovers(start: settings.start.start, days: settings.days, path: resolved)
            try series.checkFits(population: settings.population.size, scale: settings.health.casesCSVScale,
                                 start: settings.start.start, days: settings.days, path: resolved)
        } catch {
            throw ScenarioError(problems: [ScenarioProblem(file: file, path: "health.cases_csv", message: error.description)])
        }
        settings.health.casesCSV = resolved
    }
}
