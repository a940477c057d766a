import Epidemic
import Simulation

/// The `epidemic` block: transmission over the run's contacts, natural history, testing and the
/// reaction to notifications (see docs/model/epidemic.md). Each default names its source.
extension ScenarioSchema {
    static let epidemic: [Field] = [
        .boolean("enabled", \S.epidemic.enabled, doc: """
            Run the epidemic: infections spread over the simulated contacts, and the health system's index cases are the \
            epidemic's positive tests instead of `health`'s case series. Off: every output as without the block.
            """),
        .boolean("counterfactual", \S.epidemic.counterfactual, doc: """
            Also run the same seed with nobody acting on notifications (common random numbers) and report \
            `counterfactual_infections` and `infections_averted`; the run takes about twice as long.
            """),
        .integer("initial_infections", \S.epidemic.initialInfections, range: 0...10_000_000, unit: "people",
                 doc: "People infected on the first day (at random times of that day)."),
        .number("imports_per_day", \S.epidemic.importsPerDay, range: 0...1_000_000, unit: "infections/day",
                doc: "Mean infections from outside each day (Poisson), among the susceptible."),
        .number("hazard_per_minute", \S.epidemic.hazardPerMinute, range: 0...10, unit: "1/minute", doc: """
            Infection hazard per minute within 1 m of a symptomatic person at peak infectiousness; farther segments count \
            (1 m / distance)². ENSim's calibration (no published value fits this dose model): with the household factor \
            below it gives `Scenarios/epidemic.yaml` a case reproduction number of about 1.3–1.6 (autumn 2020's growth); \
            see docs/model/epidemic.md.
            """),
        .section("infectiousness", [
            .number("mean_days", \S.epidemic.infectiousnessMeanDays, range: 0.5...30, unit: "days",
                    doc: "Mean of the gamma infectiousness profile over time since infection (OpenABM-Covid19 `mean_infectious_period`, 5.5)."),
            .number("sd_days", \S.epidemic.infectiousnessSDDays, range: 0.1...30, unit: "days",
                    doc: "Standard deviation of that profile (OpenABM-Covid19 `sd_infectious_period`, 2.14)."),
            .number("asymptomatic_factor", \S.epidemic.asymptomaticInfectiousness, range: 0...1, unit: "factor",
                    doc: "Infectiousness of an asymptomatic person relative to a symptomatic one (OpenABM-Covid19 `asymptomatic_infectious_factor`, 0.33)."),
        ], doc: "How infectious an infected person is over time; infectious from the profile's 0.5% to its 99.5% quantile, then immune."),
        .section("asymptomatic_share", Field.numbers(\S.epidemic.asymptomaticShareByAge, keys: [
            ("children", "Children (OpenABM-Covid19 `fraction_asymptomatic` 0–19 years, about 0.43)."),
            ("adults", "Adults (OpenABM-Covid19 20–64 years, about 0.33)."),
            ("seniors", "Seniors (OpenABM-Covid19 65 years and over, about 0.22)."),
        ], range: 0...1, unit: "share"), doc: "Share of infected people who never develop symptoms, per age group."),
        .section("incubation", [
            .number("mean_days", \S.epidemic.incubationMeanDays, range: 0.5...30, unit: "days",
                    doc: "Mean days from infection to symptom onset, gamma (OpenABM-Covid19 `mean_time_to_symptoms`, 5.42)."),
            .number("sd_days", \S.epidemic.incubationSDDays, range: 0.1...30, unit: "days",
                    doc: "Its standard deviation (OpenABM-Covid19 `sd_time_to_symptoms`, 2.7)."),
        ], doc: "Infection to symptom onset."),
        .section("layer_factors", Field.numbers(\S.epidemic.layerFactors, keys: [
            ("household", """
                Household contacts: 0.16 makes the household secondary attack rate (summary.json) about 17%, the pooled \
                estimate of Madewell et al. 2020 (16.6%, 95% CI 14.0–19.3%); at 1 households' hours at close range infect \
                over half the household.
                """), ("workplace", "Workplace contacts."), ("school", "School contacts."),
            ("community", "Community contacts."), ("transport", "Transport contacts."),
        ], range: 0...100, unit: "factor"), doc: """
            Relative transmission per contact layer, on top of time and distance (the contact model's durations and \
            distances already differ by layer; the household factor is calibrated, the others are 1).
            """),
        .section("testing", [
            .share("symptomatic_probability", \S.epidemic.symptomaticTestProbability,
                   "Probability a symptomatic person gets tested (ENSim's round value; Covasim `symp_prob` scenarios use 0.1–0.5)."),
            .number("onset_to_test_days", \S.epidemic.onsetToTestDays, range: 0...30, unit: "days",
                    doc: "Days from symptom onset to the test (ENSim's round value)."),
            .number("result_delay_days", \S.epidemic.resultDelayDays, range: 0...30, unit: "days", doc: """
                Days from test to result (OpenABM-Covid19 `test_result_wait`, 1); a result arrives at the earliest at the next \
                midnight, when the health system takes its day's cases.
                """),
        ], doc: "Tests of symptomatic people; a test is positive while the person is infectious."),
        .section("notified", [
            .share("quarantine_compliance", \S.epidemic.quarantineCompliance,
                   "Share of notified app users who quarantine (ENSim's round value; OpenABM-Covid19 `quarantine_compliance_traced_red`, 0.5)."),
            .integer("quarantine_days", \S.epidemic.quarantineDays, range: 0...60, unit: "days",
                     doc: "Days of quarantine from the day after the notification (OpenABM-Covid19 `quarantine_length_traced_symptoms`, 10)."),
            .share("test_probability", \S.epidemic.notifiedTestProbability,
                   "Probability a notified app user gets tested (ENSim's round value)."),
            .number("test_delay_days", \S.epidemic.notificationToTestDays, range: 0...30, unit: "days",
                    doc: "Days from the end of the notification's day to the test (ENSim's round value)."),
        ], doc: "What notified app users do; quarantine removes their non-household contacts."),
        .section("isolation", [
            .share("compliance", \S.epidemic.isolationCompliance,
                   "Share of positives who isolate from their result (ENSim's round value; OpenABM-Covid19 `self_quarantine_fraction`, 0.8)."),
            .integer("days", \S.epidemic.isolationDays, range: 0...60, unit: "days",
                     doc: "Days of isolation from the result day (OpenABM-Covid19 `quarantine_length_positive`, 14; ENSim 10, the later rule)."),
        ], doc: "Isolation after a positive test; it removes non-household contacts like quarantine."),
        .share("hotline_call_share", \S.epidemic.hotlineCallShare, """
            Share of newly notified app users who call the hotline (load_daily.csv `hotline_calls_app`): 722 of 1,374 \
            notified SwissCovid users in Zurich, September 2020, called the infoline (Menges et al. 2021).
            """),
        .section("r_estimate", [
            .integer("window_days", \S.epidemic.rEstimate.windowDays, range: 1...28, unit: "days",
                     doc: "Days of positives behind each estimate (Cori et al. 2013 and EpiEstim: a week)."),
            .number("serial_interval_mean_days", \S.epidemic.rEstimate.serialIntervalMeanDays, range: 0.5...30, unit: "days",
                    doc: "Mean serial interval the analyst assumes, gamma (Nishiura, Linton & Akhmetzhanov 2020: 4.7)."),
            .number("serial_interval_sd_days", \S.epidemic.rEstimate.serialIntervalSDDays, range: 0.1...30, unit: "days",
                    doc: "Its standard deviation (Nishiura, Linton & Akhmetzhanov 2020: 2.9)."),
            .integer("reporting_lag_days", \S.epidemic.rEstimate.reportingLagDays, range: 0...30, unit: "days", doc: """
                Days from infection to positive test assumed when the estimate is compared with the true case reproduction \
                number (incubation ≈ 5.4 days, then `testing.onset_to_test_days`).
                """),
        ], doc: """
            The reproduction number an analyst would estimate from the daily positives (Cori et al. 2013, as in EpiEstim), \
            written beside the true case reproduction number in reproduction.csv.
            """),
        .section("manual_tracing", manualTracing, doc: """
            The health office's contact tracing, compared with the app's: each positive is interviewed and their traceable \
            contacts called, within a daily capacity (OpenABM-Covid19's model and defaults); see docs/model/epidemic.md.
            """),
    ]

    private static let manualTracing: [Field] = [
        .boolean("enabled", \S.epidemic.manualTracing.enabled, doc: "Trace contacts by hand. Off: no interviews, no calls."),
        .number("workers_per_100k", \S.epidemic.manualTracing.workersPer100k, range: 0...100_000, unit: "workers per 100,000 people",
                doc: "Tracing staff (OpenABM-Covid19 `manual_trace_n_workers`: 300 for 1,000,000 people, NACCHO 2020)."),
        .number("interviews_per_worker_day", \S.epidemic.manualTracing.interviewsPerWorkerDay, range: 0...1_000, unit: "interviews/day",
                doc: "Index-case interviews one worker makes a day (OpenABM-Covid19 `manual_trace_interviews_per_worker_day`, 6)."),
        .number("calls_per_worker_day", \S.epidemic.manualTracing.callsPerWorkerDay, range: 0...1_000, unit: "calls/day",
                doc: "Contacts one worker calls a day (OpenABM-Covid19 `manual_trace_notifications_per_worker_day`, 12)."),
        .number("delay_days", \S.epidemic.manualTracing.delayDays, range: 0...30, unit: "days",
                doc: "Days from a positive result to the interview (OpenABM-Covid19 `manual_trace_delay`, 1)."),
        .integer("lookback_days", \S.epidemic.manualTracing.lookbackDays, range: 0...13, unit: "days",
                 doc: "Contacts count from this many days before symptom onset, or before the test without symptoms (ECDC: 48 hours)."),
        .section("traceable_share", Field.numbers(\S.epidemic.manualTracing.traceableShare, keys: [
            ("household", "Household contacts (OpenABM-Covid19 `manual_traceable_fraction_household`, 1)."),
            ("workplace", "Workplace contacts (OpenABM-Covid19 `manual_traceable_fraction_occupation`, 0.8)."),
            ("school", "School contacts (OpenABM-Covid19 `manual_traceable_fraction_occupation`, 0.8)."),
            ("community", "Community contacts (OpenABM-Covid19 `manual_traceable_fraction_random`, 0.05)."),
            ("transport", "Transport contacts (OpenABM-Covid19 `manual_traceable_fraction_random`, 0.05)."),
        ], range: 0...1, unit: "share"), doc: "Share of an index case's contacts the office learns of and reaches, per layer."),
        .share("quarantine_compliance", \S.epidemic.manualTracing.quarantineCompliance,
               "Share of called contacts who quarantine for `notified.quarantine_days` (OpenABM-Covid19 `quarantine_compliance_traced_red`, 0.5)."),
        .share("test_probability", \S.epidemic.manualTracing.testProbability, "Probability a called contact gets tested (ENSim's round value)."),
        .number("test_delay_days", \S.epidemic.manualTracing.testDelayDays, range: 0...30, unit: "days",
                doc: "Days from the end of the call's day to the test (ENSim's round value)."),
    ]
}
