import Epidemic
import EventEngine
import HealthBackend

/// The simulation's events; the engine counts them per kind.
package enum SimulationEvent: EventKind {
    /// UTC midnight: every stage starts its day (keys roll, the day's contacts and index cases are drawn).
    case midnight
    /// An event of the health system and backend stage.
    case keySubmission(KeySubmissionEvent)
    /// An event of the epidemic stage.
    case epidemic(EpidemicEvent)

    package var kindIndex: Int {
        switch self {
        case .midnight: return 0
        case .keySubmission(let event): return 1 + event.kindIndex
        case .epidemic(let event): return 1 + KeySubmissionEvent.kindNames.count + event.kindIndex
        }
    }

    package static let kindNames = ["midnight"] + KeySubmissionEvent.kindNames + EpidemicEvent.kindNames
}
