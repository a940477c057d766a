import EventEngine
import GSL

/// Counts and ground truth of one day's contacts.
struct ContactDayResult {
    var byLayer = [Int64](repeating: 0, count: ContactLayer.allCases.count)
    var appPairContacts: Int64 = 0
    var groundTruth: GroundTruthDay
}

/// Generates a day's contacts for every person, sharded over threads; each shard handles a
/// contiguous range of initiators and the shards are merged in order, so the outcome does
/// not depend on the number of threads.
enum ContactPhase {
    struct ShardOutput: Sendable {
        var byLayer = [Int64](repeating: 0, count: ContactLayer.allCases.count)
        var appPairContacts: Int64 = 0
        var truth: [(pair: UInt64, within: Int32, total: Int32)] = []
    }

    static func run(network: ContactNetwork, population: Population, dayIndex: Int, midnight: SimTime,
                    threads: Int, seed: UInt64, onAppContact: (@Sendable (ContactView, Int, Int) -> Void)? = nil) -> ContactDayResult {
        let people = population.size
        let workers = max(1, min(threads, people))
        let outputs = ShardResults<ShardOutput>(count: workers)
        let within = Float(network.parameters.closeContactMetres)
        let per = (people + workers - 1) / workers
        forEachShard(count: workers, threads: workers) { shards in
            for w in shards {
                var out = ShardOutput()
                let stream = RandomStream(seed: seed, stream: "contacts", generator: .taus2)
                var segments: [ContactSegment] = []
                segments.reserveCapacity(512)
                for person in (w * per)..<min(people, (w + 1) * per) {
                    network.contacts(initiatedBy: person, dayIndex: dayIndex, midnight: midnight, stream: stream, segments: &segments) { c in
                        out.byLayer[c.layer.rawValue] += 1
                        out.truth.append((GroundTruthDay.key(c.a, c.b), c.seconds(within: within), c.duration))
                        let pa = Int(population.phoneOf[Int(c.a)]), pb = Int(population.phoneOf[Int(c.b)])
                        if pa >= 0 && pb >= 0 {
                            out.appPairContacts += 1
                            onAppContact?(c, pa, pb)
                        }
                    }
                }
                outputs.set(w, out)
            }
        }
        var result = ContactDayResult(groundTruth: GroundTruthDay(dayIndex: dayIndex, contacts: outputs.all.flatMap(\.truth),
                                                                  closeContactSeconds: Int32(network.parameters.closeContactMinutes * 60)))
        for o in outputs.all {
            for i in o.byLayer.indices { result.byLayer[i] += o.byLayer[i] }
            result.appPairContacts += o.appPairContacts
        }
        return result
    }
}
