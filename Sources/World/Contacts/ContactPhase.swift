import EventEngine
import GSL
import SimulationCore

/// Counts and ground truth of one day's contacts.
package struct ContactDayResult {
    package var byLayer = [Int64](repeating: 0, count: ContactLayer.allCases.count)
    package var appPairContacts: Int64 = 0
    /// The pairs `ContactPhase.run` was asked to keep (`truth.day`), and the day's counts of pairs
    /// who met and of close contacts among them, whatever was kept.
    package var truth: GroundTruthDay.Merged
}

/// Generates a day's contacts for every person, sharded over threads; each shard handles a
/// contiguous range of initiators and the shards are merged in order, so the outcome does
/// not depend on the number of threads. Shards are finer than threads and taken by whichever
/// thread is free: people differ in how many contacts they make, and a thread the machine is
/// slow to give back must not hold up the day. They shrink as the day's work runs out (a
/// 32-per-thread share at the end), so the last thread to finish waits only for a small one.
package enum ContactPhase {
    package struct ShardOutput: Sendable {
        package var byLayer = [Int64](repeating: 0, count: ContactLayer.allCases.count)
        package var appPairContacts: Int64 = 0
        package var truth: [GroundTruthDay.Entry] = []
        /// `truth` grouped by the day's pair ranges, once the shard is done.
        package var run: GroundTruthDay.PartitionedRun?
    }

    /// Contacts between two app phones also go to every observer (the radio, P6); without
    /// observers only contacts and ground truth are drawn. `sizes`, kept from day to day, sizes
    /// each shard's ground truth from the day before.
    package static func run(network: ContactNetwork, population: Population, dayIndex: Int, midnight: SimTime,
                    threads: Int, seed: UInt64, observers: [any AppContactObserver] = [],
                    everyContact: [any ContactObserver] = [], gate: (any ContactGate)? = nil,
                    keep: GroundTruthDay.Keep = .all, sizes: ShardSizes? = nil) -> ContactDayResult {
        let people = population.size
        let layout = ShardLayout(tapering: people, threads: threads, finest: 32)
        let outputs = ShardResults<ShardOutput>(count: layout.shards)
        let within = ContactSegment.log10Metres(network.parameters.closeContactMetres)
        let ranges = GroundTruthDay.PairRanges(people: people)
        sizes?.begin(shards: layout.shards)
        for o in observers { o.beginShards(layout.shards) }
        for o in everyContact { o.beginShards(layout.shards) }
        let shared = Observers(all: observers)
        let sharedEvery = EveryContact(all: everyContact, gate: gate)
        // The other person's phone (read below for every contact) is met at random: prefetched when picked.
        population.phoneOf.withUnsafeBufferPointer { phoneOfBuffer in
            let phoneOf = SharedReadBuffer(base: phoneOfBuffer)
            layout.forEach(threads: threads) { initiators in
                let w = layout.shard(of: initiators)
                var out = ShardOutput()
                if let sizes { out.truth.reserveCapacity(sizes.reservation(shard: w)) }
                let recorders = shared.all.map { $0.recorder(shard: w) }
                let everyRecorders = sharedEvery.all.map { $0.recorder(shard: w) }
                let stream = RandomStream(seed: seed, stream: "contacts", generator: .taus2)
                var segments: [ContactSegment] = []
                // Outside the loop: a variable the contact closure changes is boxed on the heap
                // where it is declared, which inside the loop was an allocation per person.
                var ordinal: UInt64 = 0
                for person in initiators {
                    ordinal = 0
                    network.contacts(initiatedBy: person, dayIndex: dayIndex, midnight: midnight, stream: stream, segments: &segments,
                                     prefetch: phoneOf.base.baseAddress) { c in
                        // Contact key: initiator (≤ 2^27), day (≤ 2^12), ordinal (≤ 2^23), leaving a bit for the direction.
                        let key = UInt64(person) << 35 | UInt64(dayIndex) << 23 | ordinal
                        ordinal += 1
                        // A removed contact (quarantine, isolation) still took its draws, so later contacts keep theirs.
                        if let gate = sharedEvery.gate, gate.removes(c) { return }
                        for r in everyRecorders { r.record(c, key: key) }
                        out.byLayer[c.layer.rawValue] += 1
                        let seconds = c.secondsAndDuration(withinLog10Metres: within)
                        out.truth.append(GroundTruthDay.Entry(pair: GroundTruthDay.key(c.a, c.b), within: seconds.within, total: seconds.total))
                        let pa = Int(phoneOf.base[Int(c.a)]), pb = Int(phoneOf.base[Int(c.b)])
                        if pa >= 0 && pb >= 0 {
                            out.appPairContacts += 1
                            for r in recorders { r.record(c, phoneA: pa, phoneB: pb, key: key) }
                        }
                    }
                }
                sizes?.record(shard: w, size: out.truth.count)
                // Grouped here, in parallel: the day's merge then sorts each range of pairs on its own.
                let raw = out.truth
                out.truth = []
                out.run = GroundTruthDay.partition(raw, by: ranges)
                outputs.set(w, out)
            }
        }
        for o in observers { o.endShards() }
        for o in everyContact { o.endShards() }
        var all = outputs.takeAll()
        var byLayer = [Int64](repeating: 0, count: ContactLayer.allCases.count), appPairContacts: Int64 = 0
        for o in all {
            for i in o.byLayer.indices { byLayer[i] += o.byLayer[i] }
            appPairContacts += o.appPairContacts
        }
        // Held by the merge alone, which frees them as soon as it can.
        let runs = all.map { $0.run! }
        all = []
        let truth = GroundTruthDay.merge(dayIndex: dayIndex, runs: runs, ranges: ranges,
                                         closeContactSeconds: Int32(network.parameters.closeContactMinutes * 60), threads: threads,
                                         keep: keep)
        return ContactDayResult(byLayer: byLayer, appPairContacts: appPairContacts, truth: truth)
    }

    /// The observers as the shards see them: each shard only asks for its own recorder.
    private struct Observers: @unchecked Sendable { let all: [any AppContactObserver] }
    private struct EveryContact: @unchecked Sendable {
        let all: [any ContactObserver]
        let gate: (any ContactGate)?
    }
}
