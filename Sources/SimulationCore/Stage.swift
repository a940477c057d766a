import EventEngine

/// One step of the simulated day. `Simulation` builds its stages from the configuration and
/// runs them in one fixed order: `startDay` at UTC midnight (inside the engine's midnight
/// event), then the engine runs the day's events (a stage schedules its own through the
/// engine and `Simulation` hands them back to it), then `endDay` once the day's last event
/// has run. After the last day, `result()` gives the stage's typed result.
///
/// A stage reads what it needs from the stages before it, which it is given when built;
/// it never reaches into a later one.
package protocol Stage: AnyObject {
    associatedtype Result
    func startDay(_ day: SimulatedDay) throws
    func endDay(_ day: SimulatedDay) throws
    func result() -> Result
}

extension Stage {
    package func startDay(_ day: SimulatedDay) throws {}
    package func endDay(_ day: SimulatedDay) throws {}
}

/// What every stage knows of the run it is part of.
public struct RunContext: Sendable, Equatable {
    public var seed: UInt64
    /// UTC midnight of the first simulated day.
    public var start: SimTime
    public var days: Int
    /// Worker threads for parallel phases; results never depend on it.
    public var threads: Int

    public init(seed: UInt64, start: SimTime, days: Int, threads: Int) {
        self.seed = seed
        self.start = start
        self.days = days
        self.threads = threads
    }
}

/// One simulated UTC day.
public struct SimulatedDay: Sendable, Equatable {
    /// 0 for the scenario's first day.
    public let index: Int
    public let midnight: SimTime
    public var end: SimTime { midnight + SimDuration.day }

    public init(index: Int, start: SimTime) {
        self.index = index
        midnight = start + Int64(index) * SimDuration.day
    }
}
