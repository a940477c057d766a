import EventEngine

/// Everything a simulation run needs, already validated (the Scenario layer builds it).
public struct SimulationConfig: Sendable, Equatable {
    public var name: String
    public var seed: UInt64
    /// First simulated instant: UTC midnight of the start date.
    public var start: SimTime
    public var days: Int
    public var populationSize: Int
    public var appAdoption: Double
    public var rpiRotationMinMinutes: Int
    public var rpiRotationMaxMinutes: Int
    public var writeHourly: Bool
    /// Worker threads for parallel phases; results never depend on it.
    public var threads: Int

    public init(name: String, seed: UInt64, start: SimTime, days: Int, populationSize: Int, appAdoption: Double,
                rpiRotationMinMinutes: Int = 10, rpiRotationMaxMinutes: Int = 20, writeHourly: Bool = true, threads: Int = 1) {
        self.name = name
        self.seed = seed
        self.start = start
        self.days = days
        self.populationSize = populationSize
        self.appAdoption = appAdoption
        self.rpiRotationMinMinutes = rpiRotationMinMinutes
        self.rpiRotationMaxMinutes = rpiRotationMaxMinutes
        self.writeHourly = writeHourly
        self.threads = threads
    }

    public var end: SimTime { start + Int64(days) * SimDuration.day }
}
