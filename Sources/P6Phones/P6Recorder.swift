import Crypto
import EventEngine
import GSL
import P6
import SimulationCore
import World

/// Every app phone's P6 state for one UTC day: its epoch, transmit sessions and clock offset,
/// each from the phone's own (seed, phone, day) streams. Only read by the contact shards.
package final class P6PhoneDay: SecondProtocolAdvertisers, @unchecked Sendable {
    package let dayIndex: Int
    package let midnight: SimTime
    package let epochs: [P6Epoch]
    package let sessions: [[Range<SimTime>]]
    package let clockOffsets: [Double]
    /// Mark receptions at home (only kept when disclosures withhold them).
    package let marksHome: Bool
    /// dB P6 advertises below GAEN's calibrated power (the seed's deliberately low Tx power).
    package let txPowerReduction: Double

    /// Misbehaving phones (freeloaders never transmit).
    package let attackers: P6Attackers?
    /// Per host phone, the replay attacks whose relay devices sit next to it today.
    package let relays: [Int32: [Int]]

    package init(parameters p: P6RunParameters, seed: UInt64, dayIndex: Int, midnight: SimTime, phoneIsIOS: [Bool], threads: Int,
                 attackers: P6Attackers? = nil) {
        self.attackers = attackers
        marksHome = p.withholdAtHome
        txPowerReduction = p.txPowerReductionDB
        self.dayIndex = dayIndex
        self.midnight = midnight
        let n = phoneIsIOS.count
        var epochs = [P6Epoch?](repeating: nil, count: n)
        var sessions = [[Range<SimTime>]](repeating: [], count: n)
        var offsets = [Double](repeating: 0, count: n)
        epochs.withUnsafeMutableBufferPointer { e in
            sessions.withUnsafeMutableBufferPointer { s in
                offsets.withUnsafeMutableBufferPointer { o in
                    let (eb, sb, ob) = (SharedBuffer(base: e), SharedBuffer(base: s), SharedBuffer(base: o))
                    forEachShard(count: n, threads: threads) { phones in
                        let stream = RandomStream(seed: seed, stream: "p6-phone", generator: .taus2)
                        for phone in phones {
                            eb.base[phone] = P6PhoneModel.epoch(seed: seed, phone: phone, midnight: midnight,
                                                                sliceSeconds: p.sliceSeconds, stream: stream)
                            let share = phoneIsIOS[phone] ? p.transmit.iosShare : p.transmit.androidShare
                            sb.base[phone] = P6PhoneModel.transmitSessions(seed: seed, phone: phone, midnight: midnight, share: share,
                                                                           meanSessionSeconds: p.transmit.meanSessionSeconds, stream: stream)
                            stream.reseed(StreamKey(seed: seed, stream: "p6-clock", index: UInt64(phone) << 24 | UInt64(dayIndex)))
                            ob.base[phone] = stream.normal(sd: p.clockOffsetSigmaSeconds)
                        }
                    }
                }
            }
        }
        self.epochs = epochs.map { $0! }
        if let attackers {
            for phone in 0..<n where attackers.freeloader[phone] { sessions[phone] = [] }
            // A fake discloser sends nothing before it installs P6.
            for (phone, at) in attackers.installedAt {
                sessions[Int(phone)] = sessions[Int(phone)].compactMap { $0.upperBound > at ? max($0.lowerBound, at)..<$0.upperBound : nil }
            }
            // A replay attacker keeps its app in the foreground, transmitting, while it relays.
            let day = midnight..<(midnight + SimDuration.day)
            for a in attackers.replays where a.window.overlaps(day) {
                sessions[Int(a.attacker)] = Self.union(sessions[Int(a.attacker)], a.window.clamped(to: day))
            }
        }
        relays = attackers?.relays(on: midnight) ?? [:]
        self.sessions = sessions
        clockOffsets = offsets
    }

    /// Ascending disjoint ranges with `extra` added.
    static func union(_ ranges: [Range<SimTime>], _ extra: Range<SimTime>) -> [Range<SimTime>] {
        var out: [Range<SimTime>] = []
        for r in (ranges + [extra]).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }

    /// Whether `phone` transmits at time `t` (sessions are ascending and disjoint).
    package func transmits(_ phone: Int, at t: SimTime) -> Bool {
        let s = sessions[phone]
        var lo = 0, hi = s.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if s[mid].upperBound <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo < s.count && s[lo].contains(t)
    }
}

/// One contact shard's P6 recorder, beside GAEN's `EncounterRecorder`: for every contact
/// between two app phones that exchange beacons, what each hears of the other's iBeacons.
/// The contact's fixed losses are GAEN's own draw (same stream key), so both protocols
/// face the same placements and body blocking; P6's own draws come from a separate stream.
package final class P6Recorder: AppContactRecorder, @unchecked Sendable {
    package let day: RadioDay
    package let phones: P6PhoneDay
    package private(set) var batch = P6RxBatch()
    private var heard: [P6RxRecord] = []
    private let lossStream: RandomStream
    private let radioFamily: StreamFamily
    private let reciprocalFamily: StreamFamily
    private let stream: RandomStream
    /// Per sender, its epoch restarted every `framesPerCheckpoint` frames (IEC = that frame's code),
    /// so a contact late in the day does not replay the HMAC chain from midnight.
    private var checkpoints: [Int: [P6Epoch]] = [:]
    package static let framesPerCheckpoint = 16
    /// Collisions (`radio.collisions`): one channel for the phones' own adverts, one per replay attack's relays.
    private let crowd: CrowdedChannel?
    private var relayCrowds: [Int: CrowdedChannel] = [:]
    /// What collisions took from this shard's P6 receptions.
    package var collisions: CollisionTally {
        var t = crowd?.tally ?? CollisionTally()
        for k in relayCrowds.keys.sorted() { t.add(relayCrowds[k]!.tally) }
        return t
    }

    package init(day: RadioDay, phones: P6PhoneDay) {
        self.day = day
        self.phones = phones
        lossStream = RandomStream(seed: day.seed, stream: "radio", generator: .taus2)
        radioFamily = StreamFamily(seed: day.seed, stream: "radio")
        reciprocalFamily = RadioDay.reciprocalFamily(seed: day.seed)
        stream = RandomStream(seed: day.seed, stream: "p6-radio", generator: .taus2)
        crowd = day.crowd.map { CrowdedChannel(crowd: $0, seed: day.seed, midnight: day.midnight, streamName: "p6-radio-collision") }
    }

    package func record(_ contact: ContactView, phoneA: Int, phoneB: Int, key: UInt64) {
        let a = day.availability.exchangesBeacons(phoneA), b = day.availability.exchangesBeacons(phoneB)
        if a && b {
            hear(contact, sender: phoneA, receiver: phoneB, key: key << 1)
            hear(contact, sender: phoneB, receiver: phoneA, key: key << 1 | 1)
        }
        guard !phones.relays.isEmpty else { return }
        // Whoever meets a host also hears the relay device beside it re-advertising a replay attacker's codes.
        if b, let attacks = phones.relays[Int32(phoneA)] { for k in attacks { relay(contact, attack: k, host: phoneA, receiver: phoneB, key: key << 1) } }
        if a, let attacks = phones.relays[Int32(phoneB)] { for k in attacks { relay(contact, attack: k, host: phoneB, receiver: phoneA, key: key << 1 | 1) } }
    }

    /// The relay beside `host` sends the attacker's current codes while the attack lasts; the
    /// contact's losses are the host's (the device is where the host is), P6's draws its own stream.
    private func relay(_ contact: ContactView, attack k: Int, host: Int, receiver: Int, key: UInt64) {
        let attack = phones.attackers!.replays[k]
        let sender = Int(attack.attacker)
        guard sender != receiver else { return }
        let sessions = phones.sessions[sender].compactMap { $0.overlaps(attack.window) ? $0.clamped(to: attack.window) : nil }
        var relayCrowd: CrowdedChannel?
        if let crowd = day.crowd {
            relayCrowd = relayCrowds[k] ?? CrowdedChannel(crowd: crowd, seed: day.seed, midnight: day.midnight, streamName: "p6-relay-collision-\(k)")
            relayCrowds[k] = relayCrowd
        }
        hear(contact, sender: sender, receiver: receiver, key: key, sessions: sessions, lossFrom: host, streamName: "p6-relay-\(k)",
             crowd: relayCrowd)
    }

    private func hear(_ contact: ContactView, sender: Int, receiver: Int, key: UInt64, sessions relayed: [Range<SimTime>]? = nil,
                      lossFrom: Int? = nil, streamName: String = "p6-radio", crowd relayCrowd: CrowdedChannel? = nil) {
        let sessions = relayed ?? phones.sessions[sender]
        let end = contact.start + Int64(contact.duration)
        guard sessions.contains(where: { $0.lowerBound < end && $0.upperBound > contact.start }) else { return }
        // The same losses as GAEN's radio draws for this direction (shared by both with `reciprocal_shadowing`).
        let loss = day.contactLoss(layer: contact.layer, calibrationError: day.radios.error(lossFrom ?? sender) + day.radios.error(receiver),
                                   directionKey: key, stream: lossStream, directionFamily: radioFamily, contactFamily: reciprocalFamily)
        stream.reseed(StreamKey(seed: day.seed, stream: streamName, index: key))
        heard.removeAll(keepingCapacity: true)
        let crowd = relayed == nil ? self.crowd : relayCrowd
        crowd?.begin(key: key, sender: sender, receiver: receiver)
        P6ContactReception.hear(segments: contact.segments, start: contact.start, layer: contact.layer, sender: epoch(sender, from: contact.start),
                                sessions: sessions, model: day.model,
                                extraLoss: loss + phones.txPowerReduction - (relayed == nil ? phones.attackers?.excessPowerDB[sender] ?? 0 : 0),
                                clockOffsetSeconds: phones.clockOffsets[receiver],
                                stream: stream, crowd: crowd, into: &heard)
        for r in heard {
            // A fake discloser hears nothing before it installs P6.
            if let attackers = phones.attackers, !attackers.installedAt.isEmpty, !attackers.uses(receiver, at: r.time) { continue }
            batch.receivers.append(Int32(receiver))
            batch.senders.append(Int32(sender))
            batch.records.append(P6PackedRx.pack(r, midnight: phones.midnight))
            if phones.marksHome { batch.atHome.append(contact.layer == .household) }
        }
    }

    /// The sender's epoch from the last checkpoint at or before `t`: the same codes at the same
    /// times (frame code and slice order come from the restarted IEC), fewer HMACs.
    private func epoch(_ sender: Int, from t: SimTime) -> P6Epoch {
        let base = phones.epochs[sender]
        let span = Int64(Self.framesPerCheckpoint * P6Epoch.slicesPerFrame * base.sliceDuration)
        let c = t <= base.start ? 0 : min(Int((t - base.start) / span), (base.frameCount - 1) / Self.framesPerCheckpoint)
        var chain = checkpoints[sender] ?? [base]
        if chain.count <= c {
            let keyed = HMAC<SHA256>(key: base.progressionKey)
            var fc = chain.last!.initialFrameCode
            while chain.count <= c {
                for _ in 0..<Self.framesPerCheckpoint { fc = fc.next(keyed: keyed) }
                let offset = Int64(chain.count) * span
                chain.append(try! P6Epoch(start: base.start + offset, duration: base.duration - Int(offset),
                                          sliceDuration: base.sliceDuration, iec: fc.bytes, epk: base.epk))
            }
            checkpoints[sender] = chain
        }
        return chain[c]
    }
}

/// P6 phones as an observer of one day's app-pair contacts, beside the GAEN radio: the shards'
/// receptions are merged in shard order and handed to `store`.
package final class P6Recording: AppContactObserver {
    package let day: RadioDay
    package let phones: P6PhoneDay
    private let store: (P6RxBatch, CollisionTally) -> Void
    private var shards = ShardResults<P6Recorder>(count: 0)

    package init(day: RadioDay, phones: P6PhoneDay, store: @escaping (P6RxBatch, CollisionTally) -> Void) {
        self.day = day
        self.phones = phones
        self.store = store
    }

    package func beginShards(_ count: Int) { shards = ShardResults(count: count) }

    package func recorder(shard index: Int) -> any AppContactRecorder {
        let recorder = P6Recorder(day: day, phones: phones)
        shards.set(index, recorder)
        return recorder
    }

    package func endShards() {
        var batch = P6RxBatch()
        var collisions = CollisionTally()
        for r in shards.all {
            batch.append(r.batch)
            collisions.add(r.collisions)
        }
        store(batch, collisions)
    }
}
