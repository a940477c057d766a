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
    public var hazardPerMinute = 0.004
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
    public var layerFactors = [1.0, 1.0, 1.0, 1.0, 1.0]
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
    /// Also run the same seed with nobody acting on notifications, and report infections averted.
    public var counterfactual = false
    /// False in the counterfactual run: notifications change nothing (no quarantine, no test).
    package var actsOnNotifications = true

    public init() {}

    public static let `default` = EpidemicParameters()

    /// Seconds within which infectiousness counts: the profile's 0.5% to 99.5% quantiles.
    package static let profileTail = 0.005
}
