import EventEngine

/// The simulation's events; the engine counts them per kind.
enum SimulationEvent: EventKind {
    /// UTC midnight: every app phone rolls its Temporary Exposure Key.
    case midnight
    /// A phone changes its Bluetooth address and RPI.
    case rpiRotation(phone: Int32)

    var kindIndex: Int {
        switch self {
        case .midnight: return 0
        case .rpiRotation: return 1
        }
    }

    static let kindNames = ["midnight", "rpi_rotation"]
}
