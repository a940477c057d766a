import EventEngine
import GSL
import HealthBackend
import SimulationCore

/// A client check whose every request succeeded (new packages or not).
public struct CheckSession: Sendable, Hashable {
    /// App-phone index (PhoneFleet order).
    public var phone: Int32
    public var at: SimTime

    public init(phone: Int32, at: SimTime) {
        self.phone = phone
        self.at = at
    }
}

/// Phones and download-only clients fetching published key packages from the CDN.
///
/// Use: `publish` packages as the backend publishes them (before `advance` passes their
/// publication time), then `advance(until:)` day by day (or hour by hour); it returns the
/// downloads by contact-population phones for exposure detection. `results()` gives the
/// load summary and tables at any point.
///
/// Clients `0..<contactPhones` are the contact population's app phones (same index as in
/// `PhoneFleet`); the rest only download. Each client draws from its own per-check GSL stream
/// (seed, "distribution.check", client << 32 | check number), and clients are split into
/// shards, each simulated client by client: results are identical for any thread count.
public final class DistributionModel {
    public let parameters: DistributionParameters
    public let flavor: DistributionFlavor
    public let start: SimTime
    public let clientCount: Int
    public let contactPhones: Int
    /// Shards run on at most this many threads at once.
    private let threads: Int
    package private(set) var catalog = PackageCatalog()
    package let shards: [ClientShard]
    public private(set) var now: SimTime
    /// Packages published so far.
    public var publishedCount: Int { catalog.count }
    /// Record every completed check session of contact phones (Immuni runs exposure detection
    /// at each successful index check, new packages or not). Off by default: it costs memory.
    public var recordsCheckSessions = false {
        didSet { for s in shards { s.core.recordsChecks = recordsCheckSessions } }
    }
    /// The completed check sessions of contact phones of the last `advance(until:)`, ordered by
    /// (time, phone); empty unless `recordsCheckSessions`.
    public private(set) var checkSessions: [CheckSession] = []

    /// - Parameters:
    ///   - contactPhoneIsIOS: OS of each contact-population app phone (index = app-phone index).
    ///   - threads: shards run in parallel; results do not depend on it.
    ///   - checkStream: names the clients' daily streams (a second model uses its own).
    public init(parameters: DistributionParameters, flavor: DistributionFlavor, seed: UInt64, start: SimTime,
                contactPhoneIsIOS: [Bool], threads: Int, checkStream: String = "distribution.check") {
        self.parameters = parameters
        self.flavor = flavor
        self.start = start
        self.threads = max(1, threads)
        now = start
        contactPhones = contactPhoneIsIOS.count
        clientCount = max(parameters.clients, contactPhoneIsIOS.count)
        let clients = max(parameters.clients, contactPhoneIsIOS.count)
        let stride = max(1, (clients + parameters.bytesSampleClients - 1) / max(1, parameters.bytesSampleClients))
        let ctx = DistributionContext(parameters: parameters, flavor: flavor, seed: seed, start: start,
                                      contactPhones: contactPhoneIsIOS.count, catalog: PackageCatalog(), sampleStride: stride,
                                      checkStream: checkStream)
        // Eight shards a thread, taken by whichever thread is free: with one shard a thread, the
        // day waited up to 0.35 s for the shard whose core the machine gave less (measured 1 M × 7).
        let layout = ShardLayout(count: clients, threads: threads, shardsPerThread: Self.shardsPerThread)
        let ranges = (0..<layout.shards).map(layout.range(ofShard:)).filter { !$0.isEmpty }
        let built = ShardResults<ClientShard>(count: ranges.count)
        let os = contactPhoneIsIOS
        forEachItem(count: ranges.count, threads: threads) { i in
            built.set(i, ClientShard(range: ranges[i], context: ctx, isIOS: { $0 < os.count ? os[$0] : nil }))
        }
        shards = built.all
        if parameters.cdnEdges > 0 {
            for s in shards { s.core.edgeLog = EdgeRequestLog(edges: parameters.cdnEdges) }
            origin = OriginLoad(edges: parameters.cdnEdges, indexMaxAge: Int(parameters.cdnIndexMaxAgeSeconds),
                                packageMaxAge: Int(parameters.cdnPackageMaxAgeSeconds), httpOverheadBytes: parameters.httpOverheadBytes)
        }
    }

    /// The origin's load behind the edge caches (nil without `cdnEdges`).
    package private(set) var origin: OriginLoad?

    /// Shards per thread (one with one thread).
    package static let shardsPerThread = 8

    /// Makes packages available (each client sees a package once `publishedAt` ≤ its check time).
    /// Sequences must continue 0, 1, 2, … and publication times must not decrease.
    public func publish(_ packages: [PublishedPackage]) {
        for p in packages {
            precondition(p.publishedAt >= now, "package \(p.sequence) published at \(p.publishedAt), before the distribution's clock (\(now))")
            catalog.append(p)
        }
    }

    /// Advances whose downloads outgrew the room kept from the advance before, and were copied
    /// (the first with any download always is; tests check both ways give the same).
    package private(set) var copiedDownloadAdvances = 0
    /// Each shard's downloads of the last advance, to size the next one's region.
    private let downloadSizes = ShardSizes()

    /// How `advance(until:)` orders the downloads it returns.
    public enum DownloadOrder: Sendable {
        /// (time, phone, package).
        case time
        /// (phone, time, package): the order the shards produce, so no sort (exposure detection's order).
        case phone
    }

    /// Processes every client event before `until` and returns the downloads by contact-population
    /// phones, in `order`.
    /// - Parameter unavailableContactPhones: contact phones that cannot run the app until then
    ///   (by app-phone index; their checks count as offline and they catch up afterwards).
    public func advance(until end: SimTime, unavailableContactPhones: [Bool] = [], order: DownloadOrder = .time) -> [PackageDownload] {
        precondition(end >= now, "advance(until:) before now")
        let all = shards
        // Every request of this advance falls in [now, end): earlier events were all handled.
        let window = Int(now - start)..<Int(end - start)
        for s in all {
            s.core.context.catalog = catalog
            s.core.unavailableContactPhones = unavailableContactPhones
            s.core.edgeLog?.reset(window: window)
        }
        let from = now
        var (out, copied) = Self.downloads(of: all, sizes: downloadSizes, threads: threads) {
            forEachItem(count: all.count, threads: threads) { all[$0].advance(from: from, until: end) }
        }
        if copied { copiedDownloadAdvances += 1 }
        origin?.fold(all.compactMap(\.core.edgeLog), window: window, catalog: catalog, flavor: flavor, start: start)
        now = end
        // Minutes before `end` are final: later events are at `end` or after.
        if foldsLoad {
            history.fold(all, upTo: Int((end - start) / 60), drop: true, threads: threads, eachMinute: streamMinute)
            streamHours(upTo: history.minutes / history.binMinutes, from: history)
        }
        checkSessions.removeAll(keepingCapacity: true)
        for s in all {
            checkSessions.append(contentsOf: s.core.checks)
            s.core.checks.removeAll(keepingCapacity: true)
        }
        checkSessions.sort { ($0.at, $0.phone) < ($1.at, $1.phone) }
        // Shards cover ascending client ranges and simulate client by client, each in time order.
        if order == .time { out.sort { ($0.at, $0.phone, $0.package) < ($1.at, $1.phone, $1.package) } }
        return out
    }

    /// The downloads of the shards' `advance`, in shard order, as one array written in place.
    /// Each shard writes into its own region of the output, sized from its count of last time
    /// (`sizes`; pages reserved but not written take no memory); the regions are then moved
    /// together. Copying the shards' own arrays into fresh pages instead was 30% of the page
    /// faults of `ensim bench population --phones 300000 --days 7`. A shard that outgrows its
    /// region keeps the rest in its array, and that advance is copied as before.
    private static func downloads(of shards: [ClientShard], sizes: ShardSizes, threads: Int,
                                  advance: () -> Void) -> ([PackageDownload], copied: Bool) {
        sizes.begin(shards: shards.count)
        let room = shards.indices.map { sizes.reservation(shard: $0) }
        let starts = room.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1) }
        var copied: [PackageDownload]?
        let out = [PackageDownload](unsafeUninitializedCapacity: starts[shards.count]) { buffer, initialized in
            for (i, s) in shards.enumerated() {
                s.core.region = UnsafeMutableBufferPointer(rebasing: buffer[starts[i]..<starts[i + 1]])
                s.core.regionCount = 0
            }
            advance()
            let counts = shards.map { $0.core.regionCount + $0.core.downloads.count }
            defer {
                for (i, (s, n)) in zip(shards, counts).enumerated() {
                    sizes.record(shard: i, size: n)
                    s.core.region = UnsafeMutableBufferPointer(start: nil, count: 0)
                    s.core.downloads = []
                }
            }
            guard shards.allSatisfy({ $0.core.downloads.isEmpty }) else {
                copied = Self.joined(shards, counts: counts, threads: threads)
                initialized = 0
                return
            }
            // Regions in order, each moved down to where the ones before it end.
            var at = 0
            for (i, n) in counts.enumerated() {
                if at != starts[i] { (buffer.baseAddress! + at).moveInitialize(from: buffer.baseAddress! + starts[i], count: n) }
                at += n
            }
            initialized = at
        }
        if let copied { return (copied, true) }
        return (out, false)
    }

    /// Every shard's region and then its array, joined into a new array (each shard copies its
    /// own part, on its own thread).
    private static func joined(_ shards: [ClientShard], counts: [Int], threads: Int) -> [PackageDownload] {
        let offsets = counts.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1) }
        return [PackageDownload](unsafeUninitializedCapacity: offsets[shards.count]) { buffer, initialized in
            let target = SharedBuffer(base: buffer)
            forEachItem(count: shards.count, threads: threads) { i in
                let core = shards[i].core, n = core.regionCount
                let part = UnsafeMutableBufferPointer(rebasing: target.base[offsets[i]..<offsets[i + 1]])
                _ = UnsafeMutableBufferPointer(rebasing: part[..<n]).initialize(fromContentsOf: UnsafeBufferPointer(rebasing: core.region[..<n]))
                core.downloads.withUnsafeBufferPointer { _ = UnsafeMutableBufferPointer(rebasing: part[n...]).initialize(fromContentsOf: $0) }
            }
            initialized = offsets[shards.count]
        }
    }

    /// Test hook: keeps `client` offline during `window` (on top of the random offline days).
    package func setOffline(client: Int, during window: Range<SimTime>) {
        for s in shards where s.lower <= client && client < s.lower + s.clientCount {
            s.setOffline(client: client, during: window)
        }
    }

    /// Bytes of state per client (its record holds the time of its next event; there is no queue).
    public static var bytesPerClient: Int { MemoryLayout<ClientState>.stride }

    /// Test hook: false keeps every shard's per-second counters (tests that read request times).
    package var foldsLoad = true

    /// The load of the minutes every shard has finished.
    package private(set) var history = LoadHistory()

    /// Reserves the load history of a run of `days` days (see `LoadHistory.reserve`).
    public func reserve(days: Int) { history.reserve(minutes: days * 1_440) }

    /// Where distribution_minutes.csv's rows go as their minutes finish (`writesMinutes`); in
    /// memory unless the run streams its tables to files.
    package var minuteStream: (any TableStream)?
    /// Where distribution_hourly.csv's rows go as their hours finish, when it has no edge-cache
    /// columns (the edges' hourly counts are kept for the run); in memory unless streamed to a file.
    package var hourStream: (any TableStream)?
    private var streamedHours = 0
    private var streamedMinutes = 0
    private var minuteRow: [ResultTable.Cell] = []
    /// The day of the last streamed minute and its date text (formatted once a day).
    private var minuteDate: (day: Int64, text: String) = (.min, "")

    /// distribution_minutes.csv's columns (configuration requests only when counted).
    package static func minuteColumns(_ parameters: DistributionParameters) -> [String] {
        ["minute", "time_utc", "requests"] + LoadCounters.Metric.columns(countsConfig: parameters.countsConfig).map(\.column)
            + ["peak_requests_per_second"]
    }

    /// Sends one finished minute's row, once, and only minutes before `now`.
    private func streamMinute(_ minute: Int, _ values: [Int], _ peak: UInt32) {
        guard parameters.writesMinutes, minute == streamedMinutes, Int64(minute + 1) * 60 <= now - start else { return }
        if minuteStream == nil { minuteStream = MemoryTableStream(columns: Self.minuteColumns(parameters)) }
        let t = start + Int64(minute) * 60, day = SimClock.dayNumber(t)
        if day != minuteDate.day { minuteDate = (day, "\(CivilDate(containing: t))") }
        // One row buffer for the run: 1,440 rows a day are a fixed cost of every simulated day.
        minuteRow.removeAll(keepingCapacity: true)
        minuteRow.append(.integer(Int64(minute)))
        minuteRow.append(.text(minuteDate.text + Self.minuteOfDaySuffix[Int(SimClock.secondOfDay(t) / 60)]))
        let config = values[LoadCounters.Metric.configRequests.rawValue]
        minuteRow.append(.integer(Int64(values[0] + values[1] + config)))
        // Every metric but the configuration requests (the last), which is a column only when counted.
        for v in values.dropLast() { minuteRow.append(.integer(Int64(v))) }
        if parameters.countsConfig { minuteRow.append(.integer(Int64(config))) }
        minuteRow.append(.integer(Int64(peak)))
        minuteStream!.append(minuteRow)
        streamedMinutes += 1
    }

    /// Sends the rows of the whole hours before `end` not yet sent, then forgets their bins (the
    /// history keeps the totals): a long run's hourly table is not held in memory.
    package func streamHours(upTo end: Int, from load: LoadHistory) {
        guard origin == nil, end > streamedHours else { return }
        let columns = hourColumns
        if hourStream == nil { hourStream = MemoryTableStream(columns: columns) }
        for h in streamedHours..<end { hourStream!.append(hourRow(h, load)) }
        streamedHours = end
        history.dropBins(before: end)
    }

    /// The whole load so far: the history and what the shards still hold (minutes not yet
    /// streamed, when the history is not folded as the run goes, are streamed now).
    package func loadSoFar() -> LoadHistory {
        var all = history
        all.fold(shards, upTo: shards.map(\.core.counters.endMinute).max() ?? 0, drop: false, threads: threads, eachMinute: streamMinute)
        return all
    }

    /// Download latency histogram (minutes from publication), summed over shards.
    package var latencyMinutes: [Int] {
        var total = [Int](repeating: 0, count: LoadCounters.latencyBins)
        for s in shards { for (i, v) in s.core.counters.latencyMinutes.enumerated() { total[i] &+= v } }
        return total
    }

    /// Bytes per sampled client and day, in client order, of the days completed so far.
    package func bytesPerClientCompleteDay() -> ArraySlice<[Int]> {
        bytesPerClientDay().prefix(max(0, Int(max(1, now - start) / SimDuration.day)))
    }

    /// Each sampled client's bytes of each completed day, read in place (day by day, in client
    /// order) without gathering them into a copy first.
    package func forEachCompleteClientDayBytes(_ body: (Int) -> Void) {
        let complete = max(0, Int(max(1, now - start) / SimDuration.day))
        let days = min(complete, shards.map(\.core.bytesSample.count).max() ?? 0)
        for d in 0..<days {
            for s in shards {
                if d < s.core.bytesSample.count { s.core.bytesSample[d].forEach(body) } else { for _ in 0..<s.core.sampleCount { body(0) } }
            }
        }
    }

    /// Bytes per sampled client and day, in client order (days completed or started so far).
    package func bytesPerClientDay() -> [[Int]] {
        let days = shards.map(\.core.bytesSample.count).max() ?? 0
        return (0..<days).map { d in
            shards.flatMap { s in d < s.core.bytesSample.count ? s.core.bytesSample[d] : [Int](repeating: 0, count: s.core.sampleCount) }
        }
    }
}
