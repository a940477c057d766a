import GSL

/// Which phones misbehave, drawn once per phone from its own stream ("p6-attack-freeloader"), so
/// a run without attacks draws nothing and keeps its figures.
package struct P6Attackers: Sendable {
    package let freeloader: [Bool]

    package init(_ attacks: P6Attacks, seed: UInt64, phones: Int) {
        freeloader = (0..<phones).map {
            attacks.freeloaderShare > 0 && RandomStream(seed: seed, stream: "p6-attack-freeloader", index: UInt64($0)).bernoulli(p: attacks.freeloaderShare)
        }
    }
}
