import Distribution
import EventEngine
import GSL
import HealthBackend
import P6
import SimulationCore
import World

/// P6 phones in a run, next to GAEN: each day's epochs and transmit sessions, the Rx traces the
/// contact phase records, disclosures when a case's GAEN upload is accepted (each ends the
/// phone's epoch at once and starts a new one), hourly disclosure files per region stream fetched
/// through their own distribution models, and matching on each phone against the files it fetched. The
/// contact phase reaches the phones through `contactObserver`; the run calls `endDay` (after
/// detection) and `finish`.
package final class P6Run {
    package let parameters: P6RunParameters
    package let seed: UInt64
    package let start: SimTime
    package let days: Int
    package let threads: Int
    package let phoneIsIOS: [Bool]
    /// Home region of every person and app phone (one region unless `p6.regions.count` > 1).
    package let regions: P6Regions
    package private(set) var rx: P6RxStore
    package private(set) var disclosures: [P6PublishedDisclosure] = []
    /// Every disclosure time per phone, ascending.
    package private(set) var disclosedAt: [Int32: [SimTime]] = [:]
    package let downloads: P6DisclosureDownloads
    /// Misbehaving phones, when `p6.attacks` has any.
    package let attackers: P6Attackers?
    /// Uploads whose phone is a freeloader and did not disclose.
    package private(set) var freeloaderUploads = 0
    /// Fake disclosure attempts made so far, and what the mitigations did with them.
    package private(set) var fakeOutcomes: [(attempt: P6FakeAttempt, outcome: P6FakeAttempt.Outcome)] = []
    /// The person of each app phone (whose home region a fake disclosure goes to).
    package let owners: [Int32]
    /// Every full match, in (day, phone) order.
    package private(set) var fullMatches: [P6FullMatch] = []
    /// First notification per phone: when it fetched the file holding the disclosure that raised it.
    package private(set) var notifications: [Int32: (at: SimTime, disclosure: Int32, byTx: Bool)] = [:]
    private var uploadsSeen = 0
    /// Per phone, the disclosures it fully matched (revocation withdraws a notification only when
    /// every one of them is revoked).
    package private(set) var matchedDisclosures: [Int32: Set<Int32>] = [:]
    /// Report times per disclosure (users who reported the disclosure that notified them).
    package private(set) var reports: [Int32: [SimTime]] = [:]
    /// Notifications withdrawn: when the phone read the revocation list that emptied its matches.
    package private(set) var withdrawn: [Int32: SimTime] = [:]
    /// With `clean_rx_matches`: per phone and disclosure, the receptions behind its Rx full
    /// matches; the (phone << 32 | disclosure) pairs matched by Tx; revoked disclosures' codes
    /// with the time their list was published; the Rx matches cleaned away.
    private var rxHits: [Int32: [Int32: Set<P6MatchIndex.RxKey>]] = [:]
    private var txMatched = Set<UInt64>()
    private var revokedCodes: [P6MatchIndex.RxKey: SimTime] = [:]
    private var revokedCoded = Set<Int32>()
    package private(set) var rxMatchesCleaned = Set<UInt64>()
    package private(set) var withdrawnByCleaning = Set<Int32>()
    package private(set) var txSingles: Int64 = 0
    package private(set) var rxSingles: Int64 = 0
    package private(set) var rxStats = RunningStatistics()
    private var phoneDay: P6PhoneDay?
    /// The day's receptions, kept with their senders until the day's disclosures are known.
    private var pending: P6RxBatch?
    /// Receptions lost to collisions, and the radio's parameters when collisions are on (`radio.collisions`).
    package private(set) var collisions = CollisionTally()
    package private(set) var collisionParameters: RadioParameters?
    /// Today's P6 receptions lost to collisions (daily.csv).
    package private(set) var todayCollisions = CollisionTally()

    package init(parameters: P6RunParameters, distribution: DistributionParameters, seed: UInt64, start: SimTime, days: Int,
         phoneIsIOS: [Bool], regions: P6Regions, threads: Int, owners: [Int32] = []) {
        self.owners = owners
        self.parameters = parameters
        self.seed = seed
        self.start = start
        self.days = days
        self.phoneIsIOS = phoneIsIOS
        self.threads = threads
        self.regions = regions
        rx = P6RxStore(retentionDays: parameters.rxRetentionDays)
        downloads = P6DisclosureDownloads(parameters: distribution, periodSeconds: parameters.disclosureFileSeconds, seed: seed,
                                          start: start, phoneIsIOS: phoneIsIOS, regionOfPhone: regions.ofPhone,
                                          regions: regions.count, subscription: parameters.subscription, threads: threads)
        downloads.recordsChecks = parameters.revocationList
        attackers = parameters.attacks.any ? P6Attackers(parameters.attacks, seed: seed, phones: phoneIsIOS.count, start: start, days: days) : nil
    }

    package var phones: Int { phoneIsIOS.count }

    /// Today's observer of the contact phase: every phone's epoch, sessions and clock for the
    /// day, and the receptions held until `endDay` knows who disclosed that day.
    package func contactObserver(radio: RadioDay) -> any AppContactObserver {
        precondition(pending == nil, "the previous day's receptions were not kept")
        let day = dayPhones(radio: radio)
        if radio.crowd != nil { collisionParameters = radio.model.parameters }
        return P6Recording(day: radio, phones: day) { [unowned self] batch, lost in
            pending = batch
            collisions.add(lost)
            todayCollisions = lost
        }
    }

    /// The day's P6 phones, made once: the crowded radio reads their sessions before the contact phase.
    package func dayPhones(radio: RadioDay) -> P6PhoneDay {
        if let phoneDay, phoneDay.dayIndex == radio.dayIndex { return phoneDay }
        let day = P6PhoneDay(parameters: parameters, seed: seed, dayIndex: radio.dayIndex, midnight: radio.midnight,
                             phoneIsIOS: phoneIsIOS, threads: threads, attackers: attackers)
        phoneDay = day
        return day
    }

    /// After the day's engine run: the day's Rx traces as really sent (epochs restarted by the
    /// day's disclosures), disclosures for the new uploads in their region streams, their files
    /// published, every phone's checks of the day, and matching of what each phone fetched.
    /// - Parameter groundTruth: the retained days' contacts (who a discloser met, for stated regions).
    package func endDay(dayIndex: Int, uploads: [CaseUpload], unavailablePhones: [Bool], groundTruth: [GroundTruthDay] = []) {
        var fresh = uploads[uploadsSeen...].filter { $0.phone >= 0 }
        if let attackers {
            let before = fresh.count
            fresh = fresh.filter { !attackers.freeloader[Int($0.phone)] }
            freeloaderUploads += before - fresh.count
        }
        uploadsSeen = uploads.count
        let builder = P6DisclosureBuilder(parameters: parameters, seed: seed, phoneIsIOS: phoneIsIOS)
        var requests = fresh.map { builder.request($0) }
        if let attackers, !attackers.fakes.isEmpty || !attackers.replays.isEmpty {
            let dayStart = start + Int64(dayIndex) * SimDuration.day
            let replays = attackers.replays.filter { $0.disclosedAt >= dayStart && $0.disclosedAt < dayStart + SimDuration.day }.map {
                P6DisclosureRequest(person: owners[Int($0.attacker)], phone: $0.attacker, testedAt: $0.disclosedAt, at: $0.disclosedAt,
                                    firstDay: SimClock.dayNumber($0.window.lowerBound), fake: true, replayAttack: $0.index)
            }
            let fakes = (fakeRequests(attackers, dayIndex: dayIndex) + replays).sorted { ($0.at, $0.phone) < ($1.at, $1.phone) }
            requests = merged(requests, fakes: fakes)
        }
        for r in requests { disclosedAt[r.phone, default: []].append(r.at) }
        keepDay(disclosers: Set(requests.map(\.phone)))
        let streams = regions.streams(requests.enumerated().map { k, r in
            P6Regions.Discloser(person: r.person, index: disclosures.count + k, fromDay: r.firstDay)
        }, statedShare: parameters.statedRegionsShare, seed: seed, groundTruth: groundTruth, startDay: SimClock.dayNumber(start))
        for (k, u) in requests.enumerated() {
            var d = builder.build(u, index: disclosures.count, rx: rx, start: start, disclosedAt: disclosedAt[u.phone]!)
            d.streams = streams[k]
            disclosures.append(d)
        }
        let dayEnd = start + Int64(dayIndex + 1) * SimDuration.day
        downloads.publish(disclosures, until: dayEnd)
        let notifiedBefore = Set(notifications.keys)
        match(downloads.advance(until: dayEnd, unavailableContactPhones: unavailablePhones))
        if parameters.reportShare > 0 { report(newlyNotified: notifications.keys.filter { !notifiedBefore.contains($0) }.sorted(), until: dayEnd) }
        if parameters.revocationList { withdrawRevoked() }
    }

    /// Newly notified users report the disclosure that notified them (stream "p6-report", phone),
    /// after an exponential delay; a disclosure whose reports until `end` reach the threshold is
    /// revoked on the list published at the end of the period of the threshold's report. Reports
    /// of later notifications come after `end`, so a crossing found now is final.
    private func report(newlyNotified: [Int32], until end: SimTime) {
        let rng = RandomStream(seed: seed, stream: "p6-report", generator: .taus2)
        for phone in newlyNotified {
            rng.reseed(StreamKey(seed: seed, stream: "p6-report", index: UInt64(phone)))
            guard rng.uniform() < parameters.reportShare else { continue }
            let n = notifications[phone]!
            reports[n.disclosure, default: []].append(n.at + SimTime(rng.exponential(mean: Double(parameters.reportDelayMeanSeconds)).rounded()))
        }
        let period = Int64(parameters.disclosureFileSeconds)
        for (d, times) in reports where disclosures[Int(d)].revokedByReportsAt == nil {
            let arrived = times.filter { $0 < end }.sorted()
            guard arrived.count >= parameters.reportThreshold else { continue }
            let crossing = arrived[parameters.reportThreshold - 1]
            disclosures[Int(d)].revokedByReportsAt = crossing
            let listed = (crossing / period + 1) * period
            disclosures[Int(d)].revocationListedAt = min(disclosures[Int(d)].revocationListedAt ?? listed, listed)
        }
    }

    /// The day's fake disclosure attempts that pass the mitigations, as disclosure requests: a fake
    /// covers everything since its install (at most the Rx retention).
    private func fakeRequests(_ attackers: P6Attackers, dayIndex: Int) -> [P6DisclosureRequest] {
        let dayStart = start + Int64(dayIndex) * SimDuration.day
        var out: [P6DisclosureRequest] = []
        for f in attackers.fakes where f.at >= dayStart && f.at < dayStart + SimDuration.day {
            let outcome = f.outcome(parameters.attacks)
            fakeOutcomes.append((f, outcome))
            guard outcome == .published else { continue }
            let first = max(SimClock.dayNumber(f.installedAt), SimClock.dayNumber(f.at) - Int64(parameters.rxRetentionDays) + 1)
            out.append(P6DisclosureRequest(person: owners[Int(f.phone)], phone: f.phone, testedAt: f.at, at: f.at, firstDay: first,
                                           installedAt: f.installedAt, ignoresEpochAge: f.modifiedClient, fake: true))
        }
        return out
    }

    /// Uploads and fakes in time order (uploads first at equal times), so files stay in disclosure order.
    private func merged(_ uploads: [P6DisclosureRequest], fakes: [P6DisclosureRequest]) -> [P6DisclosureRequest] {
        guard !fakes.isEmpty else { return uploads }
        var out: [P6DisclosureRequest] = [], i = 0
        for f in fakes {
            while i < uploads.count && uploads[i].at <= f.at { out.append(uploads[i]); i += 1 }
            out.append(f)
        }
        return out + uploads[i...]
    }

    /// A notified phone withdraws its notification at its first check (when it reads the
    /// revocation list beside its streams) after every disclosure it matched is on the list.
    private func withdrawRevoked() {
        var firstCheck: [Int32: [SimTime]] = [:]
        for c in downloads.checks { firstCheck[c.phone, default: []].append(c.at) }
        if parameters.cleansRxMatches { codeRevoked() }
        for (phone, notification) in notifications where withdrawn[phone] == nil {
            guard let matched = matchedDisclosures[phone], let times = firstCheck[phone] else { continue }
            var after = notification.at
            var cleaned: [UInt64] = []
            for d in matched {
                if let listed = disclosures[Int(d)].revocationListedAt {
                    after = max(after, listed)
                } else if let at = cleanedAt(phone: phone, disclosure: d) {
                    after = max(after, at)
                    cleaned.append(UInt64(UInt32(phone)) << 32 | UInt64(UInt32(d)))
                } else {
                    after = .max
                    break
                }
            }
            guard after < .max, let t = times.first(where: { $0 >= after }) else { continue }
            withdrawn[phone] = t
            if !cleaned.isEmpty {
                rxMatchesCleaned.formUnion(cleaned)
                withdrawnByCleaning.insert(phone)
            }
        }
    }

    /// Adds the codes of newly revoked disclosures, each at the time its list was published.
    private func codeRevoked() {
        for (i, d) in disclosures.enumerated() where d.revocationListedAt != nil && !revokedCoded.contains(Int32(i)) {
            revokedCoded.insert(Int32(i))
            for key in P6MatchIndex.txCodes(of: d, sliceSeconds: Int64(parameters.sliceSeconds)) {
                revokedCodes[key] = min(revokedCodes[key] ?? .max, d.revocationListedAt!)
            }
        }
    }

    /// When a phone's match of a disclosure that is not revoked went away with the receptions of
    /// revoked codes it dropped: nil if it was a Tx match or still holds without them.
    private func cleanedAt(phone: Int32, disclosure d: Int32) -> SimTime? {
        guard parameters.cleansRxMatches, !txMatched.contains(UInt64(UInt32(phone)) << 32 | UInt64(UInt32(d))),
              let hits = rxHits[phone]?[d] else { return nil }
        let dropped = hits.compactMap { revokedCodes[$0] }
        guard !dropped.isEmpty else { return nil }
        let kept = hits.filter { revokedCodes[$0] == nil }.map(\.slot)
        let index = P6MatchIndex(disclosures: [], parameters: parameters)
        return index.fullMatch(slots: kept) ? nil : dropped.max()!
    }

    /// Stores the pending day, with the codes of phones that disclosed that day re-derived.
    private func keepDay(disclosers: Set<Int32>) {
        guard var batch = pending, let day = phoneDay else { return }
        pending = nil
        let stream = RandomStream(seed: seed, stream: "p6-epoch-restart", generator: .taus2)
        var epochs: [Int32: [P6Epoch]] = [:]
        for phone in disclosers {
            let times = disclosedAt[phone]!.filter { SimClock.dayNumber($0) == SimClock.dayNumber(day.midnight) }
            guard !times.isEmpty else { continue }
            epochs[phone] = P6PhoneModel.epochs(seed: seed, phone: Int(phone), midnight: day.midnight, sliceSeconds: parameters.sliceSeconds,
                                                disclosures: times, stream: stream)
        }
        batch.restartingEpochs(epochs, clockOffsets: day.clockOffsets, midnight: day.midnight)
        let stored = P6RxDay(dayIndex: day.dayIndex, midnight: day.midnight, phones: phones, batch: batch)
        if phones > 0 { rxStats.add(Double(stored.records.count) / Double(phones)) }
        rx.add(stored)
    }

    /// Each phone that fetched files matches its retained Rx trace against their disclosures;
    /// a full match notifies it when it fetched a file holding the disclosure.
    private func match(_ fetched: [PackageDownload]) {
        guard !fetched.isEmpty else { return }
        // Per phone, the files it fetched today (in time order).
        var byPhone: [Int32: [(file: Int, at: SimTime)]] = [:]
        for d in fetched { byPhone[d.phone, default: []].append((d.package, d.at)) }
        let fetchers = byPhone.keys.sorted()
        let files = downloads.files
        let batch = Set(fetched.flatMap { files[$0.package].disclosures }).sorted().map { ($0, disclosures[Int($0)]) }
        let index = P6MatchIndex(disclosures: batch, parameters: parameters)
        guard !index.isEmpty else { return }
        let days = rx.days.filter { index.days.contains($0.midnight / SimDuration.day) }
        // Per fetcher, the disclosures in the files it fetched today.
        let fetchedDisclosures: [Set<Int32>] = fetchers.map { phone in Set(byPhone[phone]!.flatMap { files[$0.file].disclosures }) }
        let keepsRxHits = parameters.cleansRxMatches
        let workers = max(1, min(threads, fetchers.count))
        let outputs = ShardResults<[P6PhoneMatches]>(count: workers)
        let per = (fetchers.count + workers - 1) / workers
        forEachShard(count: workers, threads: workers) { shards in
            for w in shards {
                var out: [P6PhoneMatches] = []
                for k in (w * per)..<min(fetchers.count, (w + 1) * per) {
                    let phone = fetchers[k]
                    out.append(index.match(phone: phone, records: days.flatMap { $0.trace(Int(phone)) }, fetched: fetchedDisclosures[k],
                                           keepsRxHits: keepsRxHits))
                }
                outputs.set(w, out)
            }
        }
        for m in outputs.all.joined() {
            for h in m.rxHits { rxHits[m.full.first!.phone, default: [:]][h.disclosure, default: []].insert(h.key) }
            if parameters.cleansRxMatches {
                for f in m.full where f.byTx { txMatched.insert(UInt64(UInt32(f.phone)) << 32 | UInt64(UInt32(f.disclosure))) }
            }
            txSingles += Int64(m.txSingles)
            rxSingles += Int64(m.rxSingles)
            fullMatches += m.full
            // A phone is notified by the earliest fetch of a file holding a disclosure it fully matched.
            for f in m.full {
                // A new match notifies again: a withdrawal waits until this disclosure is revoked too.
                if matchedDisclosures[f.phone, default: []].insert(f.disclosure).inserted { withdrawn[f.phone] = nil }
                let at = byPhone[f.phone]!.filter { files[$0.file].disclosures.contains(f.disclosure) }.map(\.at).min()!
                if let n = notifications[f.phone], (n.at, n.disclosure) <= (at, f.disclosure) { continue }
                notifications[f.phone] = (at, f.disclosure, f.byTx)
            }
        }
    }
}
