import EventEngine

/// The simulation's events; the engine counts them per kind.
enum SimulationEvent: EventKind {
    /// UTC midnight: every app phone rolls its Temporary Exposure Key, the day's contacts and
    /// index cases are drawn.
    case midnight
    /// Full hour: the backend publishes, enforces retention and gets the hour's dummy and
    /// national uploads (aggregated, not one event each).
    case hour
    /// One step of a positive case's path from test result to upload (case index).
    case pipeline(PipelineStep, Int32)

    var kindIndex: Int {
        switch self {
        case .midnight: return 0
        case .hour: return 1
        case .pipeline(let step, _): return 2 + step.rawValue
        }
    }

    static let kindNames = ["midnight", "hour"] + PipelineStep.allCases.map(\.name)
}
