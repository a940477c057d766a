/// The epidemic's engine events, each at its own time and interleaved with the backend's: a
/// person becomes infectious, recovers, develops symptoms, or is tested. Infections themselves
/// are found in bulk by the sharded contact phase (at each contact's start time); quarantine and
/// isolation act on whole days through the contact gate; a positive result reaches the backend as
/// its own `test_result` event.
package enum EpidemicEvent {
    case infectious(Int32)
    case recovery(Int32)
    case symptomOnset(Int32)
    case test(Int32, TestReason)

    package var kindIndex: Int {
        switch self {
        case .infectious: return 0
        case .recovery: return 1
        case .symptomOnset: return 2
        case .test: return 3
        }
    }

    package static let kindNames = ["epidemic_infectious", "epidemic_recovery", "epidemic_symptom_onset", "epidemic_test"]
}
