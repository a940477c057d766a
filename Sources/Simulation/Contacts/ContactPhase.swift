import EventEngine
import GSL

/// Counts and ground truth of one day's contacts.
struct ContactDayResult {
    var byLayer = [Int64](repeating: 0, count: ContactLayer.allCases.count)
    var appPairContacts: Int64 = 0
    var groundTruth: GroundTruthDay
    var encounters: EncounterBatch
    var scanInstancesByHour = [Int64](repeating: 0, count: 24)
    var p6 = P6RxBatch()
}

/// Generates a day's contacts for every person, sharded over threads; each shard handles a
/// contiguous range of initiators and the shards are merged in order, so the outcome does
/// not depend on the number of threads.
enum ContactPhase {
    struct ShardOutput: Sendable {
        var byLayer = [Int64](repeating: 0, count: ContactLayer.allCases.count)
        var appPairContacts: Int64 = 0
        var truth: [GroundTruthDay.Entry] = []
        var encounters = EncounterBatch()
        var scanInstancesByHour = [Int64](repeating: 0, count: 24)
        var p6 = P6RxBatch()
    }

    /// With `radio`, contacts between two app phones go through the Bluetooth model and
    /// produce encounters; without, only contacts and ground truth are drawn.
    static func run(network: ContactNetwork, population: Population, dayIndex: Int, midnight: SimTime,
                    threads: Int, seed: UInt64, radio: RadioDay? = nil) -> ContactDayResult {
        let people = population.size
        let workers = max(1, min(threads, people))
        let outputs = ShardResults<ShardOutput>(count: workers)
        let within = Float(network.parameters.closeContactMetres)
        let per = (people + workers - 1) / workers
        forEachShard(count: workers, threads: workers) { shards in
            for w in shards {
                var out = ShardOutput()
                let recorder = radio.map(EncounterRecorder.init)
                let p6 = radio.flatMap { r in r.p6.map { P6Recorder(day: r, phones: $0) } }
                let stream = RandomStream(seed: seed, stream: "contacts", generator: .taus2)
                var segments: [ContactSegment] = []
                segments.reserveCapacity(512)
                for person in (w * per)..<min(people, (w + 1) * per) {
                    var ordinal: UInt64 = 0
                    network.contacts(initiatedBy: person, dayIndex: dayIndex, midnight: midnight, stream: stream, segments: &segments) { c in
                        out.byLayer[c.layer.rawValue] += 1
                        out.truth.append(GroundTruthDay.Entry(pair: GroundTruthDay.key(c.a, c.b), within: c.seconds(within: within), total: c.duration))
                        let pa = Int(population.phoneOf[Int(c.a)]), pb = Int(population.phoneOf[Int(c.b)])
                        if pa >= 0 && pb >= 0 {
                            out.appPairContacts += 1
                            // Contact key: initiator (≤ 2^27), day (≤ 2^12), ordinal (≤ 2^23), leaving a bit for the direction.
                            let key = UInt64(person) << 35 | UInt64(dayIndex) << 23 | ordinal
                            recorder?.record(c, phoneA: pa, phoneB: pb, key: key)
                            p6?.record(c, phoneA: pa, phoneB: pb, key: key)
                        }
                        ordinal += 1
                    }
                }
                if let recorder {
                    out.encounters = recorder.batch
                    out.scanInstancesByHour = recorder.scanInstancesByHour
                }
                if let p6 { out.p6 = p6.batch }
                outputs.set(w, out)
            }
        }
        let all = outputs.all
        var result = ContactDayResult(groundTruth: GroundTruthDay(dayIndex: dayIndex, contacts: all.flatMap(\.truth),
                                                                  closeContactSeconds: Int32(network.parameters.closeContactMinutes * 60)),
                                      encounters: EncounterBatch())
        for o in all {
            for i in o.byLayer.indices { result.byLayer[i] += o.byLayer[i] }
            for h in 0..<24 { result.scanInstancesByHour[h] += o.scanInstancesByHour[h] }
            result.appPairContacts += o.appPairContacts
            result.encounters.append(o.encounters)
            result.p6.append(o.p6)
        }
        return result
    }
}
