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
            (1 m / distance)². ENSim's calibration (no published value fits this dose model): in `Scenarios/epidemic.yaml` \
            0.0015 died out and 0.008 doubled every ~3 days; see docs/model/epidemic.md.
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
            ("household", "Household contacts."), ("workplace", "Workplace contacts."), ("school", "School contacts."),
            ("community", "Community contacts."), ("transport", "Transport contacts."),
        ], range: 0...100, unit: "factor"), doc: """
            Relative transmission per contact layer, on top of time and distance (ENSim's round values: the contact \
            model's durations and distances already differ by layer).
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
    ]
}
