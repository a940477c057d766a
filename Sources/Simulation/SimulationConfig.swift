import Analytics
import Detection
import Distribution
import Epidemic
import EventEngine
import HealthBackend
import P6Phones
import SimulationCore
import World

/// Everything a simulation run needs, already validated (the Scenario layer builds it).
public struct SimulationConfig: Sendable, Equatable {
    public var name: String
    public var seed: UInt64
    /// First simulated instant: UTC midnight of the start date.
    public var start: SimTime
    public var days: Int
    public var population: PopulationParameters
    public var availability: AvailabilityParameters
    public var contacts: ContactParameters
    public var radio: RadioParameters
    public var health: HealthParameters
    public var backend: BackendParameters
    public var distribution: DistributionParameters
    public var analytics: AnalyticsParameters
    /// The `p6` block: P6 phones beside GAEN (off by default).
    public var p6: P6RunParameters
    public var writeHourly: Bool
    /// The `epidemic` block: transmission, testing and quarantine (off by default).
    public var epidemic: EpidemicParameters = .default
    /// Whether the run also runs its counterfactual (the same seed, the app doing nothing).
    public var runsCounterfactual: Bool { epidemic.enabled && epidemic.counterfactual }
    /// The `app.detection` block.
    public var detection: DetectionParameters
    /// Worker threads for parallel phases; results never depend on it.
    public var threads: Int
    /// Keep every contact pair of the last 21 days (`Simulation.groundTruth`: tests, detection
    /// studies). Not a scenario key: runs score against close contacts only, and P6 keeps the
    /// pairs it needs anyway; at national scale these pairs would be the largest store.
    public var retainsGroundTruth = false

    public init(name: String, seed: UInt64, start: SimTime, days: Int, population: PopulationParameters,
                availability: AvailabilityParameters = .default, contacts: ContactParameters = .default,
                radio: RadioParameters = .default, health: HealthParameters = .default,
                backend: BackendParameters = .default, distribution: DistributionParameters = .default,
                detection: DetectionParameters = .default, analytics: AnalyticsParameters = .default, p6: P6RunParameters = .default,
                writeHourly: Bool = true, threads: Int = 1) {
        self.name = name
        self.seed = seed
        self.start = start
        self.days = days
        self.population = population
        self.availability = availability
        self.contacts = contacts
        self.radio = radio
        self.health = health
        self.backend = backend
        self.distribution = distribution
        self.analytics = analytics
        self.p6 = p6
        self.writeHourly = writeHourly
        self.detection = detection
        self.threads = threads
    }

    public var populationSize: Int { population.size }

    /// What every stage knows of the run.
    public var context: RunContext { RunContext(seed: seed, start: start, days: days, threads: threads) }

    public var end: SimTime { start + Int64(days) * SimDuration.day }
}
