import EventEngine

/// The simulation's events; the engine counts them per kind.
enum SimulationEvent: EventKind {
    /// UTC midnight: every app phone rolls its Temporary Exposure Key and the day's contacts are drawn.
    case midnight

    var kindIndex: Int {
        switch self {
        case .midnight: return 0
        }
    }

    static let kindNames = ["midnight"]
}
