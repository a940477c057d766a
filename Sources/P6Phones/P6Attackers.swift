import EventEngine
import GSL

/// One attempt to disclose without a positive test (the seed's "Fake Disclosures").
package struct P6FakeAttempt: Sendable, Equatable {
    package var phone: Int32
    /// When the attacker started using P6 (before it the phone neither sends nor hears P6 codes).
    package var installedAt: SimTime
    package var at: SimTime
    /// A modified client: it ignores the app's rules (app age, epoch age); attestation can reject it.
    package var modifiedClient: Bool
    /// Attestation would reject it (drawn for every attempt, so the draws do not depend on the settings).
    package var failsAttestation: Bool

    package enum Outcome: Sendable, Equatable { case published, rejectedByAppAge, rejectedByAttestation }

    /// The genuine app refuses to disclose before the minimum app age; attestation rejects a
    /// modified client's request with the drawn share; what is left is published.
    package func outcome(_ attacks: P6Attacks) -> Outcome {
        if modifiedClient { return failsAttestation ? .rejectedByAttestation : .published }
        return at - installedAt < Int64(attacks.minimumAppAgeSeconds) ? .rejectedByAppAge : .published
    }
}

/// One scaled replay (the seed's "Scaled Replay"): relay devices next to `hosts` re-advertise the
/// attacker's codes live during `window`, so whoever meets a host hears the attacker; then the
/// attacker discloses with the genuine app (it passes attestation and the app age).
package struct P6ReplayAttack: Sendable, Equatable {
    package var index: Int
    package var attacker: Int32
    /// Phones next to which a relay device sits, ascending.
    package var hosts: [Int32]
    /// Relaying, from a midnight until the disclosure (`window.upperBound`).
    package var window: Range<SimTime>

    package var disclosedAt: SimTime { window.upperBound }

    /// The days an attack can start on: the run's first `runDays − replayDays`, at least one.
    package static func startDays(runDays: Int, replayDays: Int) -> Int { max(1, runDays - replayDays) }

    /// Draws attack `index` from its own stream ("p6-attack-replay", index): attacker, hosts, start day and disclosure minute.
    package static func draw(_ index: Int, attacks: P6Attacks, seed: UInt64, phones: Int, start: SimTime, days: Int) -> P6ReplayAttack {
        let rng = RandomStream(seed: seed, stream: "p6-attack-replay", index: UInt64(index))
        let attacker = Int32(rng.uniformInt(phones))
        var hosts = Set<Int32>()
        while hosts.count < min(attacks.replayRelays, phones - 1) {
            let h = Int32(rng.uniformInt(phones))
            if h != attacker { hosts.insert(h) }
        }
        let first = rng.uniformInt(startDays(runDays: days, replayDays: attacks.replayDays))
        let from = start + Int64(first) * SimDuration.day
        let at = from + Int64(attacks.replayDays) * SimDuration.day + 60 + Int64(rng.uniformInt(3_540))
        return P6ReplayAttack(index: index, attacker: attacker, hosts: hosts.sorted(), window: from..<at)
    }
}

/// Which phones misbehave, drawn once per phone from its own streams ("p6-attack-freeloader",
/// "p6-attack-fake", "p6-attack-excess-power"), so a run without attacks draws nothing and keeps its figures.
package struct P6Attackers: Sendable {
    package let freeloader: [Bool]
    /// dB each phone's P6 adverts are louder than the app's own power (0 for all but excess-power attackers).
    package let excessPowerDB: [Double]
    /// Fake disclosure attempts by time (then phone), made until the run's end.
    package let fakes: [P6FakeAttempt]
    /// Phones that start using P6 during the run, and when.
    package let installedAt: [Int32: SimTime]
    package let replays: [P6ReplayAttack]

    package init(_ attacks: P6Attacks, seed: UInt64, phones: Int, start: SimTime = 0, days: Int = 0) {
        freeloader = (0..<phones).map {
            attacks.freeloaderShare > 0 && RandomStream(seed: seed, stream: "p6-attack-freeloader", index: UInt64($0)).bernoulli(p: attacks.freeloaderShare)
        }
        excessPowerDB = (0..<phones).map {
            attacks.excessPowerShare > 0
                && RandomStream(seed: seed, stream: "p6-attack-excess-power", index: UInt64($0)).bernoulli(p: attacks.excessPowerShare)
                ? attacks.excessPowerDB : 0
        }
        var fakes: [P6FakeAttempt] = []
        var installedAt: [Int32: SimTime] = [:]
        if attacks.fakeDisclosureShare > 0 {
            let end = start + Int64(days) * SimDuration.day
            for phone in 0..<phones {
                let rng = RandomStream(seed: seed, stream: "p6-attack-fake", index: UInt64(phone))
                guard rng.uniform() < attacks.fakeDisclosureShare else { continue }
                let install = start + SimTime((rng.uniform() * Double(end - start)).rounded(.down))
                let at = install + SimTime(rng.exponential(mean: Double(attacks.fakeDelayMeanSeconds)).rounded())
                let modified = rng.uniform() < attacks.modifiedClientShare
                let fails = rng.uniform() < attacks.attestationRejectShare
                installedAt[Int32(phone)] = install
                if at < end {
                    fakes.append(P6FakeAttempt(phone: Int32(phone), installedAt: install, at: at, modifiedClient: modified, failsAttestation: fails))
                }
            }
        }
        self.fakes = fakes.sorted { ($0.at, $0.phone) < ($1.at, $1.phone) }
        self.installedAt = installedAt
        replays = phones < 2 ? [] : (0..<attacks.replayAttacks).map {
            P6ReplayAttack.draw($0, attacks: attacks, seed: seed, phones: phones, start: start, days: days)
        }
    }

    /// Per host phone, the replay attacks relaying next to it during the day from `midnight`.
    package func relays(on midnight: SimTime) -> [Int32: [Int]] {
        var out: [Int32: [Int]] = [:]
        for a in replays where a.window.overlaps(midnight..<(midnight + SimDuration.day)) {
            for h in a.hosts { out[h, default: []].append(a.index) }
        }
        return out
    }

    /// Whether `phone` uses P6 at `t`.
    package func uses(_ phone: Int, at t: SimTime) -> Bool { installedAt[Int32(phone)].map { t >= $0 } ?? true }
}
