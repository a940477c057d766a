import EventEngine
import GSL
import HealthBackend

/// What one client remembers between checks: 24 bytes.
package struct ClientState {
    /// When its next check (or retry, or deferred check) happens.
    package var nextEvent: SimTime = 0
    /// Every package with sequence ≤ watermark has been handled (downloaded or superseded).
    package var watermark: Int32 = -1
    /// 1 + minute of the last request (distinct clients per minute); 0 = none yet.
    package var lastMinute: UInt32 = 0
    /// 1 + day (since the model's start) for which `offlineToday` was drawn.
    package var offlineDrawDay: UInt16 = 0
    package var flags: UInt8 = 0
    /// Failed sessions in a row (0 = next event is a regular check).
    package var attempt: UInt8 = 0

    package static let iOSFlag: UInt8 = 1, offlineFlag: UInt8 = 2
    package var isIOS: Bool { flags & Self.iOSFlag != 0 }
}

/// Settings every shard reads.
package struct DistributionContext: Sendable {
    package let parameters: DistributionParameters
    package let flavor: DistributionFlavor
    package let seed: UInt64
    package let start: SimTime
    package let contactPhones: Int
    /// The packages published so far (refreshed by the model before each advance).
    package var catalog: PackageCatalog
    /// Clients whose index is a multiple of this are in the bytes-per-client-day sample.
    package let sampleStride: Int
    /// Names the clients' daily streams (a second model beside GAEN's draws its own).
    package let checkStream: String

    package var checkFamily: StreamFamily { StreamFamily(seed: seed, stream: checkStream) }
}

/// A contiguous range of clients with its own random stream and counters.
/// One thread at a time; clients never interact, so shard boundaries cannot change results.
/// A class holding a struct: the hot loop runs in the struct's mutating methods, where Swift
/// checks exclusive access statically (class properties pay a dynamic check per access,
/// measured at ~10% of the loop).
package final class ClientShard: @unchecked Sendable {
    package var core: ClientShardCore
    package init(range: Range<Int>, context: DistributionContext, isIOS: (Int) -> Bool?) {
        core = ClientShardCore(range: range, context: context, isIOS: isIOS)
    }
    package var lower: Int { core.lower }
    package var clientCount: Int { core.clients.count }
    package func advance(from now: SimTime, until end: SimTime) { core.advance(from: now, until: end) }
    package func setOffline(client c: Int, during window: Range<SimTime>) { core.forcedOffline[c] = window }
}

package struct ClientShardCore {
    package let lower: Int
    package var context: DistributionContext
    package var clients: [ClientState]
    package let rng: RandomStream
    package let checkFamily: StreamFamily
    package var counters = LoadCounters()
    /// Downloads by contact-population phones in this advance: the first go to `region` (the
    /// shard's part of the model's output, set by the model), the rest, once it is full, here.
    package var downloads: [PackageDownload] = []
    package var region = UnsafeMutableBufferPointer<PackageDownload>(start: nil, count: 0)
    package var regionCount = 0
    /// Completed sessions of contact-population phones, when the model records them (analytics).
    package var checks: [CheckSession] = []
    package var recordsChecks = false
    /// bytesSample[day][k]: bytes of sampled client lower-rounded-up + k·stride on that day.
    package var bytesSample: [[Int]] = []
    package let firstSample: Int, sampleCount: Int
    package var forcedOffline: [Int: Range<SimTime>] = [:]
    /// Requests the edges answered in the current `advance` (nil without the edge-cache model).
    package var edgeLog: EdgeRequestLog?
    /// Contact phones that cannot run the app during the current `advance` (phone off,
    /// app force-closed, uninstalled: the simulation's availability of the day), by phone.
    package var unavailableContactPhones: [Bool] = []
    /// Packages of the session being planned.
    private var plan = ScratchList<Int>()
    /// Days whose hour index the session being planned reads.
    private var hourDays = ScratchList<Int64>()
    /// Packages visible at the start of the current `advance` (no event of it is earlier).
    private var firstVisible = 0
    /// rootIndexBody[v - firstVisible]: body bytes of the root index with v packages visible,
    /// computed once per `advance` (the catalog does not change during one).
    private var rootIndexBody: [Int] = []
    /// hourIndexBody[(d - hourIndexFirstDay) · rootIndexBody.count + v - firstVisible]: body
    /// bytes of day d's hour index with v packages visible, looked up once per `advance` (-1: not yet).
    private var hourIndexBody: [Int] = []
    private var hourIndexFirstDay: Int64 = 0
    /// The advance's first second and the packages visible at the start of each of its minutes:
    /// a session looks its count up instead of searching the catalog.
    private var windowStart: SimTime = 0
    private var visibleByMinute: [Int] = []
    /// The current client's slot in the bytes sample (-1: not sampled) and its CDN edge.
    private var sampleSlot = -1
    /// The sampled client's bytes on `sampleDay` not yet in `bytesSample` (-1: none): added once
    /// per client and day, not per session.
    private var sampleDay = -1, sampleBytes = 0
    private var edge = 0
    /// Streams of clients whose day goes on past the last advance (which ended inside
    /// `parkedDay`), by local index: the next advance resumes them. Empty after whole days.
    private var parked: [Int: (UInt32, UInt32, UInt32)] = [:]
    private var parkedDay = -1

    package init(range: Range<Int>, context: DistributionContext, isIOS: (Int) -> Bool?) {
        lower = range.lowerBound
        self.context = context
        rng = RandomStream(seed: context.seed, stream: context.checkStream, generator: .taus2)
        checkFamily = context.checkFamily
        let stride = context.sampleStride
        firstSample = (range.lowerBound + stride - 1) / stride
        sampleCount = max(0, (range.upperBound + stride - 1) / stride - firstSample)
        clients = [ClientState](repeating: ClientState(), count: range.count)
        let p = context.parameters
        for local in 0..<range.count {
            let c = lower + local
            rng.reseed(checkFamily, index: UInt64(c) << 32)
            let ios = isIOS(c) ?? rng.bernoulli(p: p.iosShare)
            if ios { clients[local].flags |= ClientState.iOSFlag }
            // As if the previous check was scheduled before the start: uniform in the first interval.
            clients[local].nextEvent = context.start + Int64(rng.uniformInt(Int(max(1, p.checkJitterSeconds))))
        }
    }

    /// Days since the model's start.
    @inline(__always)
    private func day(of t: SimTime) -> Int { Int((t - context.start) / 86_400) }

    /// Handles every client event in [now, end), client by client. Clients never interact and
    /// every counter is a sum, so this gives exactly what a time-ordered event queue would —
    /// without one: state is read in order instead of at random, and nothing is queued.
    ///
    /// A client draws from one stream per day (index: client << 32 | day + 1; 0 named its set-up),
    /// seeded at its first event of the day: seeding per check was a third of this loop. A day
    /// cut by the end of an advance parks the stream, so results do not depend on the steps.
    package mutating func advance(from now: SimTime, until end: SimTime) {
        prepareLookups(from: now, until: end)
        let resumed = parked, resumedDay = parkedDay
        let endDay = day(of: end), endsInsideDay = (end - context.start) % 86_400 != 0
        // Clients without an event now keep their parked stream while the day goes on.
        parked = endsInsideDay && resumedDay == endDay ? resumed : [:]
        parkedDay = endsInsideDay ? endDay : -1
        guard end > now else { return }
        var loan = counters.lend(throughMinute: Int((end - 1 - context.start) / 60))
        let counted = loan.count { counter in
            advanceClients(until: end, resumed: resumed, resumedDay: resumedDay, endDay: endDay, endsInsideDay: endsInsideDay,
                           counter: &counter)
        }
        counters.restore(loan, counted: counted)
    }

    private mutating func advanceClients(until end: SimTime, resumed: [Int: (UInt32, UInt32, UInt32)], resumedDay: Int,
                                         endDay: Int, endsInsideDay: Bool, counter: inout EventCounter) {
        let stride = context.sampleStride, edges = context.parameters.cdnEdges
        for local in clients.indices {
            var st = clients[local]
            guard st.nextEvent < end else { continue }
            let c = lower + local
            sampleSlot = c % stride == 0 ? c / stride - firstSample : -1
            edge = edges > 0 ? edgeOfClient(c, edges: edges) : 0
            var streamDay = -1
            while st.nextEvent < end {
                let d = day(of: st.nextEvent)
                if d != streamDay {
                    if d == resumedDay, let words = resumed[local] { rng.tausWords = words }
                    else { rng.reseed(checkFamily, index: UInt64(c) << 32 | UInt64(d + 1)) }
                    streamDay = d
                }
                handle(client: c, state: &st, counter: &counter)
            }
            flushSampleBytes()
            if endsInsideDay && streamDay == endDay { parked[local] = rng.tausWords }
            clients[local] = st
        }
    }

    /// The catalog's answers every session of this advance needs, looked up once.
    private mutating func prepareLookups(from now: SimTime, until end: SimTime) {
        let catalog = context.catalog, flavor = context.flavor, skipEmpty = context.parameters.skipsEmptyPackages
        windowStart = now
        visibleByMinute = stride(from: now, to: max(end, now + 1), by: 60).map { catalog.visibleCount(at: $0) }
        firstVisible = visibleByMinute[0]
        rootIndexBody = (firstVisible...catalog.count).map { v in
            switch flavor {
            case .cwa: catalog.dateIndexBytes(visible: v, nonEmpty: skipEmpty)
            case .immuni, .p6: catalog.immuniIndexBytes(visible: v)
            }
        }
        // Hour indexes (CWA) of the days packages cover.
        hourIndexFirstDay = catalog.day.first ?? 0
        let days = flavor == .cwa ? Int((catalog.day.max() ?? hourIndexFirstDay - 1) - hourIndexFirstDay + 1) : 0
        hourIndexBody = [Int](repeating: -1, count: days * rootIndexBody.count)
    }

    private mutating func hourIndexBytes(day d: Int64, visible v: Int) -> Int {
        let i = Int(d - hourIndexFirstDay) * rootIndexBody.count + v - firstVisible
        if hourIndexBody[i] < 0 {
            hourIndexBody[i] = context.catalog.hourIndexBytes(day: d, visible: v, nonEmpty: context.parameters.skipsEmptyPackages)
        }
        return hourIndexBody[i]
    }

    /// Packages visible at `t` (in the advance's window): its minute's count, plus any package
    /// published earlier in that minute.
    @inline(__always)
    private func visibleCount(at t: SimTime) -> Int {
        var v = visibleByMinute[Int(t - windowStart) / 60]
        while v < context.catalog.count && context.catalog.publishedAt[v] <= t { v += 1 }
        return v
    }

    private mutating func flushSampleBytes() {
        guard sampleDay >= 0 else { return }
        while bytesSample.count <= sampleDay { bytesSample.append([Int](repeating: 0, count: sampleCount)) }
        bytesSample[sampleDay][sampleSlot] += sampleBytes
        (sampleDay, sampleBytes) = (-1, 0)
    }

    /// Next regular check: the next interval boundary plus random(jitter) (CWA seed).
    @inline(__always)
    private mutating func nextRegularCheck(after t: SimTime) -> SimTime {
        let interval = context.parameters.checkIntervalSeconds
        let boundary = (t >= 0 ? t / interval : (t - interval + 1) / interval) * interval + interval
        return boundary + Int64(rng.uniformInt(Int(max(1, context.parameters.checkJitterSeconds))))
    }

    /// One event of client `c` at `st.nextEvent`; sets the time of its next one.
    private mutating func handle(client c: Int, state st: inout ClientState, counter: inout EventCounter) {
        let t = st.nextEvent
        let elapsed = t - context.start
        let day = Int(elapsed / 86_400)
        let minute = Int(elapsed / 60)
        counter.begin(minute: minute)
        defer { counter.end() }

        if Int(st.offlineDrawDay) != day + 1 {
            st.offlineDrawDay = UInt16(truncatingIfNeeded: day + 1)
            let share = st.isIOS ? context.parameters.offlineShareIOS : context.parameters.offlineShareAndroid
            if share > 0 && rng.bernoulli(p: share) { st.flags |= ClientState.offlineFlag } else { st.flags &= ~ClientState.offlineFlag }
        }
        var offline = st.flags & ClientState.offlineFlag != 0
        if !forcedOffline.isEmpty, let r = forcedOffline[c], r.contains(t) { offline = true }
        if c < unavailableContactPhones.count && unavailableContactPhones[c] { offline = true }
        if offline {
            counter.count(.offlineChecks)
            st.attempt = 0
            st.nextEvent = nextRegularCheck(after: t)
            return
        }
        if st.attempt == 0 {
            let share = st.isIOS ? context.parameters.deferralShareIOS : context.parameters.deferralShareAndroid
            if share > 0 && rng.bernoulli(p: share) {
                counter.count(.deferredChecks)
                st.nextEvent = t + max(1, Int64(rng.exponential(mean: context.parameters.deferralMeanSeconds).rounded()))
                return
            }
        }

        let ok = session(client: c, state: &st, at: t, day: day, minute: minute, counter: &counter)
        if ok || Int(st.attempt) >= context.parameters.retryMaxAttempts {
            st.attempt = 0
            st.nextEvent = nextRegularCheck(after: t)
        } else {
            st.attempt += 1
            let base = context.parameters.retryBase(attempt: Int(st.attempt))
            st.nextEvent = t + max(1, Int64(rng.uniform(base / 2, base).rounded()))
        }
    }

    /// What a session's requests add up to.
    private struct SessionTally {
        var requests = 0, bytes: Int
        let isRetry: Bool, outage: Bool, second: Int
    }

    /// One request of a session: counted, failed (an outage, or a draw at the error rate) or
    /// answered with `body` bytes (and `status`), and logged at the client's edge. A method, not
    /// a function nested in `session`: capturing the session's counts, that was compiled as a
    /// call of its own (1.3% of a 1 M run), and forced inline it boxed them.
    @inline(__always)
    private mutating func request(_ metric: LoadCounters.Metric, _ object: CachedObjectKind, _ number: Int, body: Int,
                                  status: LoadCounters.Metric?, tally: inout SessionTally, counter: inout EventCounter) -> Bool {
        tally.requests += 1
        counter.count(metric)
        if tally.isRetry { counter.count(.retryRequests) }
        let errorRate = context.parameters.cdnErrorRate, overhead = context.parameters.httpOverheadBytes
        if tally.outage || (errorRate > 0 && rng.bernoulli(p: errorRate)) {
            counter.count(.errors)
            tally.bytes += overhead
            return false
        }
        if let status { counter.count(status) }
        tally.bytes += overhead + body
        if edgeLog != nil && number >= 0 {
            edgeLog!.record(object, number: number, edge: edge, second: tally.second)
        }
        return true
    }

    /// One check session: index request(s), then every new package. All or nothing: keys reach
    /// exposure detection (and the watermark moves) only when every request succeeded.
    private mutating func session(client c: Int, state st: inout ClientState, at t: SimTime, day: Int, minute: Int,
                                  counter: inout EventCounter) -> Bool {
        // Parameters are read in place: a local copy of them was a memcpy per check.
        let visible = visibleCount(at: t)
        let w = Int(st.watermark)
        let anyNew = visible - 1 > w
        let isRetry = st.attempt > 0
        var failed = false
        let elapsed = t - context.start
        // During an outage every request fails (and draws nothing).
        let outage = context.parameters.outageDurationSeconds > 0 && elapsed >= context.parameters.outageStartSeconds
            && elapsed < context.parameters.outageStartSeconds + context.parameters.outageDurationSeconds
        var tally = SessionTally(bytes: context.parameters.sessionOverheadBytes, isRetry: isRetry, outage: outage, second: Int(elapsed))

        plan.removeAll()
        // The app configuration comes first (CWA's app config, Immuni's settings), when modelled.
        // (Not in the edge model: number −1.)
        if context.parameters.configBytes > 0 {
            failed = !request(.configRequests, .rootIndex, -1, body: context.parameters.configBytes, status: nil,
                              tally: &tally, counter: &counter)
        }
        let skipEmpty = context.parameters.skipsEmptyPackages
        switch context.flavor {
        case .immuni, .p6:
            if anyNew { for s in (w + 1)..<visible where !(skipEmpty && context.catalog.isEmpty[s]) { plan.append(s) } }
            if !failed {
                failed = !request(.indexRequests, .rootIndex, 0, body: anyNew ? rootIndexBody[visible - firstVisible] : 0,
                                  status: anyNew ? nil : .notModified, tally: &tally, counter: &counter)
            }
        case .cwa:
            // Missing whole days come as daily packages, the rest as hourly ones; packages without
            // keys are not in the index files when `skipEmpty`.
            hourDays.removeAll()
            if anyNew {
                for s in (w + 1)..<visible {
                    if context.catalog.isDaily[s] {
                        if context.catalog.firstHourlyOfDay(ofPackage: s) > w && !(skipEmpty && context.catalog.isEmpty[s]) { plan.append(s) }
                    } else {
                        let d = context.catalog.day[s]
                        if context.catalog.firstHourlyOfDay(ofPackage: s) > w, let daily = context.catalog.dailySequence(day: d), daily < visible {
                            continue
                        }
                        if skipEmpty && context.catalog.isEmpty[s] { continue }
                        plan.append(s)
                        if hourDays.last != d { hourDays.append(d) }
                    }
                }
            }
            if !failed {
                failed = !request(.indexRequests, .rootIndex, 0,
                                  body: anyNew ? rootIndexBody[visible - firstVisible] : 0,
                                  status: anyNew ? nil : .notModified, tally: &tally, counter: &counter)
            }
            let today = SimClock.dayNumber(t)
            // Hour indexes are numbered by day since the start (the edges cache each day's).
            let startDay = SimClock.dayNumber(context.start)
            if !failed && !hourDays.contains(today) {
                if context.catalog.hasHourly(day: today, visible: visible, nonEmpty: skipEmpty) {
                    failed = !request(.indexRequests, .hourIndex, Int(today - startDay), body: 0, status: .notModified,
                                      tally: &tally, counter: &counter)
                } else {
                    failed = !request(.indexRequests, .hourIndex, Int(today - startDay), body: 0, status: .notFound,
                                      tally: &tally, counter: &counter)
                }
            }
            for i in 0..<hourDays.count where !failed {
                let d = hourDays[i]
                failed = !request(.indexRequests, .hourIndex, Int(d - startDay), body: hourIndexBytes(day: d, visible: visible),
                                  status: nil, tally: &tally, counter: &counter)
            }
        }
        if !failed {
            for i in 0..<plan.count {
                let s = plan[i]
                if !request(.packageRequests, .package, s, body: context.catalog.bytes[s], status: nil, tally: &tally,
                            counter: &counter) { failed = true; break }
                counter.count(.packageBytes, context.catalog.bytes[s])
            }
        }

        let bytes = tally.bytes
        counter.count(.sessions)
        counter.count(.bytes, bytes)
        counter.addRequests(tally.requests, second: Int(elapsed))
        if Int(st.lastMinute) != minute + 1 {
            st.lastMinute = UInt32(truncatingIfNeeded: minute + 1)
            counter.count(.clients)
        }
        if sampleSlot >= 0 {
            if day != sampleDay { flushSampleBytes(); sampleDay = day }
            sampleBytes += bytes
        }
        if failed { return false }

        st.watermark = Int32(visible - 1)
        if recordsChecks && c < context.contactPhones { checks.append(CheckSession(phone: Int32(c), at: t)) }
        counter.count(.downloads, plan.count)
        for i in 0..<plan.count {
            let s = plan[i]
            counter.addLatency(t - context.catalog.publishedAt[s])
            if c < context.contactPhones {
                let d = PackageDownload(phone: Int32(c), package: s, at: t)
                if regionCount < region.count {
                    (region.baseAddress! + regionCount).initialize(to: d)
                    regionCount += 1
                } else {
                    downloads.append(d)
                }
            }
        }
        return true
    }
}
