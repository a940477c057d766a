import EventEngine
import GSL
import World

/// Home regions for P6's regional disclosure streams. The contact model has no geography, so
/// regions are equal blocks of whole households (household members always share a region);
/// contacts outside the household cross regions as often as a well-mixed population makes them.
package struct P6Regions: Sendable {
    package let count: Int
    /// Region of each person.
    package let ofPerson: [Int32]
    /// Region of each app phone.
    package let ofPhone: [Int32]

    /// - Parameters:
    ///   - householdOf: each person's household; households are numbered 0, 1, … in person order.
    ///   - owners: the person of each app phone.
    package init(count: Int, householdOf: [Int32], households: Int, owners: [Int32]) {
        precondition(count >= 1)
        self.count = count
        let h = max(1, households)
        let ofPerson = householdOf.map { Int32(Int($0) * count / h) }
        self.ofPerson = ofPerson
        ofPhone = owners.map { ofPerson[Int($0)] }
    }

    /// A disclosure about to be published: who, its index among the run's disclosures, and the
    /// first UTC day number it covers.
    package struct Discloser {
        package var person: Int32
        package var index: Int
        package var fromDay: Int64
    }

    /// The streams each disclosure goes to: its discloser's home region, plus, when the
    /// discloser states where it has been (stream `p6-stated-regions`, disclosure index; share
    /// `statedShare`), the home regions of everyone it met from its first covered day on (the
    /// run's contact ground truth: one pass over each retained day for all of them). Ascending.
    package func streams(_ disclosers: [Discloser], statedShare: Double, seed: UInt64, groundTruth: [GroundTruthDay],
                 startDay: Int64) -> [[Int32]] {
        var visited = disclosers.map { Set([ofPerson[Int($0.person)]]) }
        guard count > 1, statedShare > 0 else { return visited.map { $0.sorted() } }
        let rng = RandomStream(seed: seed, stream: "p6-stated-regions", generator: .taus2)
        var stating: [Int32: [Int]] = [:]
        for (k, d) in disclosers.enumerated() {
            rng.reseed(StreamKey(seed: seed, stream: "p6-stated-regions", index: UInt64(d.index)))
            if rng.bernoulli(p: statedShare) { stating[d.person, default: []].append(k) }
        }
        guard !stating.isEmpty else { return visited.map { $0.sorted() } }
        var isStating = [Bool](repeating: false, count: ofPerson.count)
        for person in stating.keys { isStating[Int(person)] = true }
        let earliest = stating.values.joined().map { disclosers[$0].fromDay }.min()!
        for day in groundTruth where startDay + Int64(day.dayIndex) >= earliest {
            let dayNumber = startDay + Int64(day.dayIndex)
            func met(_ me: Int32, _ other: Int32) {
                for k in stating[me]! where dayNumber >= disclosers[k].fromDay { visited[k].insert(ofPerson[Int(other)]) }
            }
            for pair in day.pairs {
                let a = Int32(truncatingIfNeeded: pair >> 32), b = Int32(truncatingIfNeeded: pair & 0xffff_ffff)
                if isStating[Int(a)] { met(a, b) }
                if isStating[Int(b)] { met(b, a) }
            }
        }
        return visited.map { $0.sorted() }
    }
}
