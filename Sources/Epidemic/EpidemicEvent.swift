/// The epidemic's engine events, each at its own time and interleaved with the backend's: a
/// person becomes infectious, recovers, develops symptoms, or is tested, or a quarantine or
/// isolation starts or ends. Infections themselves are found in bulk by the sharded contact phase
/// (at each contact's start time); a positive result reaches the backend as its own `test_result`
/// event. Quarantine and isolation cover whole days: their events fall on midnights, before the
/// day's contact phase (priority below the midnight's), and set who the contact gate removes.
package enum EpidemicEvent {
    case infectious(Int32)
    case recovery(Int32)
    case symptomOnset(Int32)
    case test(Int32, TestReason)
    case confinementStart(Int32)
    case confinementEnd(Int32)

    package var kindIndex: Int {
        switch self {
        case .infectious: return 0
        case .recovery: return 1
        case .symptomOnset: return 2
        case .test: return 3
        case .confinementStart: return 4
        case .confinementEnd: return 5
        }
    }

    /// Engine priority: confinement changes run before the midnight event (priority −1) whose
    /// contact phase they gate.
    package var priority: Int32 {
        switch self {
        case .confinementStart, .confinementEnd: return -2
        default: return 0
        }
    }

    package static let kindNames = ["epidemic_infectious", "epidemic_recovery", "epidemic_symptom_onset", "epidemic_test",
                                    "epidemic_confinement_start", "epidemic_confinement_end"]
}
