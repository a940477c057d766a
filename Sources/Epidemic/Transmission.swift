import EventEngine
import Foundation
import GSL
import World

/// Who is infected and confined, read by every contact shard during the contact phase and
/// changed only between phases (single-threaded), hence unchecked.
final class EpidemicState: @unchecked Sendable {
    /// Int64.max: never infected (susceptible).
    var infectedAt: [SimTime]
    var infectiousFrom: [SimTime]
    var recoveredAt: [SimTime]
    var relativeInfectiousness: [Float]
    /// Who infected each person (-1: not infected, or seeded or imported).
    var infector: [Int32]
    /// Day indices [from, through] of a person's quarantine or isolation; through < from: none.
    var confinedFrom: [Int32]
    var confinedThrough: [Int32]
    /// Whether the current or last confinement is isolation (else quarantine).
    var isolating: [Bool]
    /// Who is in quarantine or isolation today: set and cleared by the confinement events at the
    /// midnights where a window starts and ends (the contact gate reads it).
    var confinedNow: [Bool]
    var dayIndex: Int32 = 0

    init(people: Int) {
        infectedAt = Array(repeating: .max, count: people)
        infectiousFrom = Array(repeating: .max, count: people)
        recoveredAt = Array(repeating: .max, count: people)
        relativeInfectiousness = Array(repeating: 0, count: people)
        infector = Array(repeating: -1, count: people)
        confinedFrom = Array(repeating: 0, count: people)
        confinedThrough = Array(repeating: -1, count: people)
        isolating = Array(repeating: false, count: people)
        confinedNow = Array(repeating: false, count: people)
    }

    /// Whether the person's window covers day `d`.
    func isConfined(_ person: Int32, onDay d: Int32) -> Bool {
        let p = Int(person)
        return confinedFrom[p] <= d && d <= confinedThrough[p]
    }

    func isInfectious(_ person: Int32, at t: SimTime) -> Bool {
        infectiousFrom[Int(person)] <= t && t < recoveredAt[Int(person)]
    }
}

/// One infecting contact found during the contact phase.
struct InfectionCandidate {
    var target: Int32
    var source: Int32
    var at: SimTime
    var layer: ContactLayer
}

/// Dose–response over a contact's proximity profile: each segment adds minutes weighted by
/// min(1, (1 m / distance)²), scaled by the source's infectiousness at the contact's start and
/// the layer's factor; the infection probability is 1 − exp(−hazard × dose). The draw comes
/// from the contact's own stream ("epidemic.transmission", contact key), so it does not depend
/// on threads or on other contacts.
final class TransmissionRecorder: ContactRecorder {
    private let state: EpidemicState
    private let history: NaturalHistory
    private let family: StreamFamily
    private let rng: RandomStream
    private(set) var found: [InfectionCandidate] = []
    /// Manual tracing's draw of who would name whom (nil: no manual tracing).
    let namer: ContactNamer?

    init(state: EpidemicState, history: NaturalHistory, seed: UInt64, namer: ContactNamer?) {
        self.state = state
        self.history = history
        self.namer = namer
        family = StreamFamily(seed: seed, stream: "epidemic.transmission")
        rng = RandomStream(seed: seed, stream: "epidemic.transmission", generator: .taus2)
    }

    func record(_ c: ContactView, key: UInt64) {
        namer?.record(c.a, c.b, layer: c.layer)
        let aInfected = state.infectedAt[Int(c.a)] != .max, bInfected = state.infectedAt[Int(c.b)] != .max
        guard aInfected != bInfected else { return }
        let (source, target) = aInfected ? (c.a, c.b) : (c.b, c.a)
        guard state.isInfectious(source, at: c.start) else { return }
        let days = Double(c.start - state.infectedAt[Int(source)]) / Double(SimDuration.day)
        let infectiousness = history.infectiousness(daysSinceInfection: days) * Double(state.relativeInfectiousness[Int(source)])
        guard infectiousness > 0 else { return }
        var dose = 0.0
        for s in c.segments {
            // 1/m², at most 1 (within a metre); the segment holds log10 of the distance.
            dose += Double(s.seconds) / 60 * (s.log10Metres <= 0 ? 1 : pow(10, -2 * s.log10Metres))
        }
        let hazard = history.parameters.hazardPerMinute * history.parameters.layerFactors[c.layer.rawValue] * infectiousness * dose
        rng.reseed(family, index: key)
        if rng.uniform() < -expm1(-hazard) {
            found.append(InfectionCandidate(target: target, source: source, at: c.start, layer: c.layer))
        }
    }
}
