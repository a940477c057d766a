import EventEngine
import HealthBackend

/// The simulation's events; the engine counts them per kind.
package enum SimulationEvent: EventKind {
    /// UTC midnight: every stage starts its day (keys roll, the day's contacts and index cases are drawn).
    case midnight
    /// An event of the health system and backend stage.
    case keySubmission(KeySubmissionEvent)

    package var kindIndex: Int {
        switch self {
        case .midnight: return 0
        case .keySubmission(let event): return 1 + event.kindIndex
        }
    }

    package static let kindNames = ["midnight"] + KeySubmissionEvent.kindNames
}
