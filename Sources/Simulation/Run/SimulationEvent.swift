import EventEngine

/// The simulation's events; the engine counts them per kind.
enum SimulationEvent: EventKind {
    /// UTC midnight: every stage starts its day (keys roll, the day's contacts and index cases are drawn).
    case midnight
    /// An event of the health system and backend stage.
    case keySubmission(KeySubmissionEvent)

    var kindIndex: Int {
        switch self {
        case .midnight: return 0
        case .keySubmission(let event): return 1 + event.kindIndex
        }
    }

    static let kindNames = ["midnight"] + KeySubmissionEvent.kindNames
}
