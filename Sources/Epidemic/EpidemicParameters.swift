/// The `epidemic` block: transmission over the run's contacts, natural history, testing and
/// the reaction to notifications (docs/model/epidemic.md). Defaults name their source in the
/// scenario reference.
public struct EpidemicParameters: Sendable, Equatable {
    /// Off: no epidemic stage, every output as without the block.
    public var enabled = false
    /// People infected at the first midnight.
    public var initialInfections = 20
    /// Mean infections imported each day (Poisson), among the susceptible.
    public var importsPerDay = 0.5
    /// Infection hazard per minute within 1 m of a symptomatic source at peak infectiousness.
    public var hazardPerMinute = 0.006
    /// Infectiousness profile over time since infection (gamma): mean and sd in days.
    public var infectiousnessMeanDays = 5.5
    public var infectiousnessSDDays = 2.14
    /// Relative infectiousness of an asymptomatic person.
    public var asymptomaticInfectiousness = 0.33
    /// Share asymptomatic for children, adults, seniors.
    public var asymptomaticShareByAge = [0.43, 0.33, 0.22]
    /// Infection to symptom onset (gamma): mean and sd in days.
    public var incubationMeanDays = 5.42
    public var incubationSDDays = 2.7
    /// Relative transmission per layer: household, workplace, school, community, transport.
    public var layerFactors = [0.16, 1.0, 1.0, 1.0, 1.0]
    /// Probability a symptomatic person gets tested, and days from onset to test.
    public var symptomaticTestProbability = 0.5
    public var onsetToTestDays = 2.0
    /// Days from test to result.
    public var resultDelayDays = 1.0
    /// Share of notified app users who quarantine, and for how many days.
    public var quarantineCompliance = 0.5
    public var quarantineDays = 10
    /// Probability a notified app user gets tested, and days from notification to test.
    public var notifiedTestProbability = 0.5
    public var notificationToTestDays = 1.0
    /// Share of positives who isolate, and for how many days.
    public var isolationCompliance = 0.8
    public var isolationDays = 10
    /// Manual contact tracing by the health office (off by default).
    public var manualTracing = ManualTracingParameters()
    /// The analyst's reproduction-number estimate from daily positives (reproduction.csv).
    public var rEstimate = ReproductionEstimateParameters()
    /// Share of newly notified app users who call the hotline (load_daily.csv).
    public var hotlineCallShare = 0.53
    /// Also run the same seed with nobody acting on notifications, and report infections averted.
    public var counterfactual = false
    /// False in the counterfactual run: notifications change nothing (no quarantine, no test).
    package var actsOnNotifications = true

    public init() {}

    public static let `default` = EpidemicParameters()

    /// Seconds within which infectiousness counts: the profile's 0.5% to 99.5% quantiles.
    package static let profileTail = 0.005
}

/// `epidemic.manual_tracing`: the health office interviews positives and calls their traceable
/// contacts, within a daily capacity (OpenABM-Covid19's manual tracing model and defaults).
public struct ManualTracingParameters: Sendable, Equatable {
    public var enabled = false
    /// Tracing staff per 100,000 people (OpenABM-Covid19: 300 workers for 1,000,000).
    public var workersPer100k = 30.0
    /// Index-case interviews and contact calls one worker makes a day.
    public var interviewsPerWorkerDay = 6.0
    public var callsPerWorkerDay = 12.0
    /// Days from a positive result to the interview.
    public var delayDays = 1.0
    /// Contacts count from this many days before onset (or the test, without symptoms).
    public var lookbackDays = 2
    /// Share of contacts the index case names and the office reaches, per layer: household,
    /// workplace, school, community, transport.
    public var traceableShare = [1.0, 0.8, 0.8, 0.05, 0.05]
    /// Share of traced contacts who quarantine, and who test, days after the call.
    public var quarantineCompliance = 0.5
    public var testProbability = 0.5
    public var testDelayDays = 1.0

    public init() {}

    /// Interviews and calls a day for `population` people.
    package func capacity(population: Int) -> (interviews: Int, calls: Int) {
        let workers = workersPer100k * Double(population) / 100_000
        return (Int((workers * interviewsPerWorkerDay).rounded()), Int((workers * callsPerWorkerDay).rounded()))
    }
}

/// `epidemic.r_estimate`: what the analyst assumes when estimating R from daily positives.
public struct ReproductionEstimateParameters: Sendable, Equatable {
    /// Days of positives per estimate (Cori et al. 2013 and EpiEstim's default: a week).
    public var windowDays = 7
    /// Serial interval assumed (gamma; Nishiura, Linton & Akhmetzhanov 2020: mean 4.7, sd 2.9 days).
    public var serialIntervalMeanDays = 4.7
    public var serialIntervalSDDays = 2.9
    /// Days from infection to a positive test the analyst assumes when comparing (onset ≈ 5.4 days
    /// after infection, tested 2 days later).
    public var reportingLagDays = 7

    public init() {}
}
