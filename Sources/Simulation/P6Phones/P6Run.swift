import EventEngine
import GSL
import P6

/// P6 phones in a run, next to GAEN: each day's epochs and transmit sessions, the Rx traces the
/// contact phase records, disclosures when a case's GAEN upload is accepted, hourly disclosure
/// files, and matching on every app phone after each day. The simulation calls `startDay` (to
/// hand the contact phase each phone's state), `store` (the day's receptions), `endDay` (after
/// detection) and `finish`.
final class P6Run {
    let parameters: P6RunParameters
    let seed: UInt64
    let start: SimTime
    let days: Int
    let threads: Int
    let phoneIsIOS: [Bool]
    private(set) var rx: P6RxStore
    private(set) var disclosures: [P6PublishedDisclosure] = []
    /// Every full match, in (day, phone) order.
    private(set) var fullMatches: [P6FullMatch] = []
    /// First notification per phone: the file time and disclosure that raised it.
    private(set) var notifications: [Int32: (at: SimTime, disclosure: Int32, byTx: Bool)] = [:]
    private var uploadsSeen = 0
    private var published = 0
    private(set) var txSingles: Int64 = 0
    private(set) var rxSingles: Int64 = 0
    private(set) var rxStats = RunningStatistics()
    private var phoneDay: P6PhoneDay?

    init(parameters: P6RunParameters, seed: UInt64, start: SimTime, days: Int, phoneIsIOS: [Bool], threads: Int) {
        self.parameters = parameters
        self.seed = seed
        self.start = start
        self.days = days
        self.phoneIsIOS = phoneIsIOS
        self.threads = threads
        rx = P6RxStore(retentionDays: parameters.rxRetentionDays)
    }

    var phones: Int { phoneIsIOS.count }

    /// Every phone's epoch, sessions and clock for the day, for the contact phase.
    func startDay(dayIndex: Int, midnight: SimTime) -> P6PhoneDay {
        let day = P6PhoneDay(parameters: parameters, seed: seed, dayIndex: dayIndex, midnight: midnight, phoneIsIOS: phoneIsIOS, threads: threads)
        phoneDay = day
        return day
    }

    /// Keeps the day's receptions (grouped by phone) for `rxRetentionDays`.
    func store(dayIndex: Int, midnight: SimTime, batch: P6RxBatch) {
        let day = P6RxDay(dayIndex: dayIndex, midnight: midnight, phones: phones, batch: batch)
        if phones > 0 { rxStats.add(Double(day.records.count) / Double(phones)) }
        rx.add(day)
    }

    /// After the day's engine run: disclosures for the new uploads, then every phone matches the
    /// disclosure files published by the end of the day.
    func endDay(dayIndex: Int, uploads: [CaseUpload]) {
        let builder = P6DisclosureBuilder(parameters: parameters, seed: seed, phoneIsIOS: phoneIsIOS)
        for u in uploads[uploadsSeen...] where u.phone >= 0 {
            disclosures.append(builder.build(u, index: disclosures.count, rx: rx, start: start))
        }
        uploadsSeen = uploads.count
        let dayEnd = start + Int64(dayIndex + 1) * SimDuration.day
        var batch: [(index: Int32, published: P6PublishedDisclosure)] = []
        while published < disclosures.count && disclosures[published].fileTime <= dayEnd {
            batch.append((Int32(published), disclosures[published]))
            published += 1
        }
        let index = P6MatchIndex(disclosures: batch, parameters: parameters)
        guard !index.isEmpty else { return }
        let days = rx.days.filter { index.days.contains($0.midnight / SimDuration.day) }
        let phones = self.phones
        let workers = max(1, min(threads, phones))
        let outputs = ShardResults<[P6PhoneMatches]>(count: workers)
        let per = (phones + workers - 1) / max(1, workers)
        forEachShard(count: workers, threads: workers) { shards in
            for w in shards {
                var out: [P6PhoneMatches] = []
                for phone in (w * per)..<min(phones, (w + 1) * per) {
                    out.append(index.match(phone: Int32(phone), records: days.flatMap { $0.trace(phone) }))
                }
                outputs.set(w, out)
            }
        }
        for m in outputs.all.joined() {
            txSingles += Int64(m.txSingles)
            rxSingles += Int64(m.rxSingles)
            fullMatches += m.full
            // A phone is notified by the earliest file holding a disclosure it fully matched.
            for f in m.full {
                let at = disclosures[Int(f.disclosure)].fileTime
                if let n = notifications[f.phone], (n.at, n.disclosure) <= (at, f.disclosure) { continue }
                notifications[f.phone] = (at, f.disclosure, f.byTx)
            }
        }
    }
}
