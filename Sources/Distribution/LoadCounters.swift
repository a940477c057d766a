import EventEngine

/// CDN load seen by one shard, per simulated minute and second since the model's start.
/// Integer counters only, so shards merge by addition and the totals never depend on threads.
package struct LoadCounters {
    package enum Metric: Int, CaseIterable, Sendable {
        case indexRequests, packageRequests, retryRequests, notModified, notFound, errors, bytes, packageBytes
        case clients, sessions, downloads, offlineChecks, deferredChecks
        /// Configuration downloads (CWA's app configuration, Immuni's `/v1/settings`); a column only
        /// when the model counts them (`DistributionParameters.configBytes` > 0).
        case configRequests

        package var column: String {
            switch self {
            case .indexRequests: "index_requests"
            case .packageRequests: "package_requests"
            case .retryRequests: "retry_requests"
            case .notModified: "not_modified_304"
            case .notFound: "not_found_404"
            case .errors: "errors"
            case .bytes: "bytes"
            case .packageBytes: "package_bytes"
            case .clients: "clients"
            case .sessions: "sessions"
            case .downloads: "packages_downloaded"
            case .offlineChecks: "offline_checks"
            case .deferredChecks: "deferred_checks"
            case .configRequests: "config_requests"
            }
        }

        /// The metrics that are columns of the load tables: configuration requests only when counted.
        package static func columns(countsConfig: Bool) -> [Metric] {
            allCases.filter { countsConfig || $0 != .configRequests }
        }
    }

    package static let metricCount = Metric.allCases.count
    /// Latency histogram: one bin per minute up to 14 days, the last bin collects the rest.
    package static let latencyBins = 14 * 1_440 + 1

    /// The minute `perMinute` starts at: earlier minutes were folded into the run's `LoadHistory`,
    /// so a shard keeps about a day of counters however long the run.
    package private(set) var firstMinute = 0
    /// (minute - firstMinute) * metricCount + metric.
    package var perMinute: [Int] = []
    /// Requests per second from `firstMinute * 60` (peak requests/s).
    package var requestsPerSecond: [UInt32] = []
    package var latencyMinutes = [Int](repeating: 0, count: latencyBins)

    /// The length an array of counters grows to when index `i` is counted: a day at a time
    /// (`step`: a day's minutes' rows or a day's seconds), further when `i` lies beyond that.
    @inline(__always)
    static func grown(_ length: Int, toHold i: Int, step: Int) -> Int { i < length ? length : length + max(i + 1 - length, step) }
    static let minuteStep = 1_440 * metricCount, secondStep = 86_400

    @inline(__always)
    package mutating func add(_ metric: Metric, _ value: Int, minute: Int) {
        let i = (minute - firstMinute) * Self.metricCount + metric.rawValue
        Self.resize(&perMinute, to: Self.grown(perMinute.count, toHold: i, step: Self.minuteStep))
        perMinute[i] &+= value
    }

    /// Lends the per-minute and per-second counters and the latency histogram to one advance's
    /// loop, which counts through pointers into them (`EventCounter`); `restore` takes them back.
    /// Moved out of the shard, they take one bounds check per event instead of a uniqueness and a
    /// bounds check per count.
    /// `throughMinute`: the last minute an event of the advance can fall in.
    package mutating func lend(throughMinute last: Int) -> CounterLoan {
        precondition(last >= firstMinute, "an advance before the counters' first minute")
        var loan = CounterLoan(firstMinute: firstMinute, perMinute: perMinute, requestsPerSecond: requestsPerSecond,
                               latency: latencyMinutes)
        (perMinute, requestsPerSecond, latencyMinutes) = ([], [], [])
        // Room for every minute of the advance; `restore` keeps only the lengths the counts reached.
        let rows = (last - firstMinute + 1) * Self.metricCount, seconds = (last - firstMinute + 1) * 60
        if loan.perMinute.count < rows { loan.perMinute.append(contentsOf: repeatElement(0, count: rows - loan.perMinute.count)) }
        if loan.requestsPerSecond.count < seconds {
            loan.requestsPerSecond.append(contentsOf: repeatElement(0, count: seconds - loan.requestsPerSecond.count))
        }
        return loan
    }

    /// Takes back what `lend` lent, at the lengths `add` and `addRequests` would have grown the arrays to.
    package mutating func restore(_ loan: CounterLoan, counted: EventCounter) {
        (perMinute, requestsPerSecond, latencyMinutes) = (loan.perMinute, loan.requestsPerSecond, loan.latency)
        Self.resize(&perMinute, to: counted.rowsInUse)
        Self.resize(&requestsPerSecond, to: counted.secondsInUse)
    }

    @inline(__always)
    private static func resize<T: FixedWidthInteger>(_ a: inout [T], to n: Int) {
        if a.count > n {
            a.removeLast(a.count - n)
        } else if a.count < n {
            a.append(contentsOf: repeatElement(0, count: n - a.count))
        }
    }

    @inline(__always)
    package mutating func addRequests(_ n: Int, second: Int) {
        let i = second - firstMinute * 60
        Self.resize(&requestsPerSecond, to: Self.grown(requestsPerSecond.count, toHold: i, step: Self.secondStep))
        requestsPerSecond[i] &+= UInt32(n)
    }

    /// The last minute with any counter, plus one.
    package var endMinute: Int {
        max(firstMinute + perMinute.count / Self.metricCount, firstMinute + (requestsPerSecond.count + 59) / 60)
    }

    /// Forgets the counters of minutes before `minute` (already folded into the history).
    package mutating func drop(before minute: Int) {
        guard minute > firstMinute else { return }
        let minutes = minute - firstMinute
        perMinute.removeFirst(min(perMinute.count, minutes * Self.metricCount))
        requestsPerSecond.removeFirst(min(requestsPerSecond.count, minutes * 60))
        firstMinute = minute
    }

    /// Adds the counters of `range` into `values` (minute by minute from `range.lowerBound`,
    /// `metricCount` each) and its requests per second into `seconds` (60 a minute); minutes
    /// outside what the shard holds add nothing, as `value` and `requests` read them.
    package func accumulate(minutes range: Range<Int>, values: inout [Int], seconds: inout [UInt32]) {
        let m = Self.metricCount
        let lo = max(range.lowerBound, firstMinute), hi = min(range.upperBound, firstMinute + perMinute.count / m)
        if lo < hi {
            perMinute.withUnsafeBufferPointer { src in
                values.withUnsafeMutableBufferPointer { dst in
                    let from = (lo - firstMinute) * m, to = (lo - range.lowerBound) * m
                    for i in 0..<((hi - lo) * m) { dst[to + i] &+= src[from + i] }
                }
            }
        }
        let slo = max(range.lowerBound * 60, firstMinute * 60), shi = min(range.upperBound * 60, firstMinute * 60 + requestsPerSecond.count)
        if slo < shi {
            requestsPerSecond.withUnsafeBufferPointer { src in
                seconds.withUnsafeMutableBufferPointer { dst in
                    let from = slo - firstMinute * 60, to = slo - range.lowerBound * 60
                    for i in 0..<(shi - slo) { dst[to + i] &+= src[from + i] }
                }
            }
        }
    }

    package func value(_ metric: Metric, minute: Int) -> Int {
        let i = (minute - firstMinute) * Self.metricCount + metric.rawValue
        return i >= 0 && i < perMinute.count ? perMinute[i] : 0
    }

    package func requests(second: Int) -> UInt32 {
        let i = second - firstMinute * 60
        return i >= 0 && i < requestsPerSecond.count ? requestsPerSecond[i] : 0
    }
}

/// The storage of a shard's `LoadCounters` while an advance counts into it.
package struct CounterLoan {
    let firstMinute: Int
    var perMinute: [Int], requestsPerSecond: [UInt32], latency: [Int]
    /// The lengths the arrays had before the advance.
    let rowsBefore: Int, secondsBefore: Int

    init(firstMinute: Int, perMinute: [Int], requestsPerSecond: [UInt32], latency: [Int]) {
        (self.firstMinute, self.perMinute) = (firstMinute, perMinute)
        (self.requestsPerSecond, self.latency) = (requestsPerSecond, latency)
        (rowsBefore, secondsBefore) = (perMinute.count, requestsPerSecond.count)
    }

    /// Runs `body` with an `EventCounter` writing into the lent storage; returns it for `restore`.
    package mutating func count(_ body: (inout EventCounter) -> Void) -> EventCounter {
        let (first, rows, seconds) = (firstMinute, rowsBefore, secondsBefore)
        return perMinute.withUnsafeMutableBufferPointer { minutes in
            requestsPerSecond.withUnsafeMutableBufferPointer { perSecond in
                latency.withUnsafeMutableBufferPointer { latency in
                    var counter = EventCounter(firstMinute: first, minutes: minutes, seconds: perSecond, latency: latency,
                                               rowsInUse: rows, secondsInUse: seconds)
                    body(&counter)
                    return counter
                }
            }
        }
    }
}

/// Counts one advance's client events into lent storage (`CounterLoan`). The counts of one event
/// all fall in its minute, so they are summed here and added to the minute's row at once.
/// `rowsInUse` and `secondsInUse` follow the lengths `LoadCounters.add` and `addRequests` would
/// grow the arrays to (a day at a time, from the first count beyond them), which the results read.
package struct EventCounter {
    private let firstMinute: Int
    private let minutes: UnsafeMutableBufferPointer<Int>
    private let seconds: UnsafeMutableBufferPointer<UInt32>
    private let latency: UnsafeMutableBufferPointer<Int>
    package private(set) var rowsInUse: Int
    package private(set) var secondsInUse: Int
    private var pending = InlineArray<14, Int>(repeating: 0)
    private var row = 0
    /// Whether the event's row lies inside `rowsInUse`; if not, each count grows it as `add` would.
    private var rowInUse = false

    fileprivate init(firstMinute: Int, minutes: UnsafeMutableBufferPointer<Int>, seconds: UnsafeMutableBufferPointer<UInt32>,
                     latency: UnsafeMutableBufferPointer<Int>, rowsInUse: Int, secondsInUse: Int) {
        precondition(LoadCounters.metricCount == 14, "one pending count per metric")
        (self.firstMinute, self.minutes, self.seconds, self.latency) = (firstMinute, minutes, seconds, latency)
        (self.rowsInUse, self.secondsInUse) = (rowsInUse, secondsInUse)
    }

    /// Starts an event in `minute` (inside the lent advance): `count` then adds to it until `end`.
    @inline(__always)
    package mutating func begin(minute: Int) {
        row = (minute - firstMinute) * LoadCounters.metricCount
        precondition(row >= 0 && row + LoadCounters.metricCount <= minutes.count, "an event outside the lent advance")
        rowInUse = row + LoadCounters.metricCount <= rowsInUse
    }

    @inline(__always)
    package mutating func count(_ metric: LoadCounters.Metric, _ value: Int = 1) {
        if !rowInUse {
            rowsInUse = LoadCounters.grown(rowsInUse, toHold: row + metric.rawValue, step: LoadCounters.minuteStep)
        }
        pending[metric.rawValue] &+= value
    }

    /// Adds the event's counts to its minute: all 14, zeros included, in a loop of fixed length
    /// (noting which were counted, to add only those, cost more than the adds it saved).
    @inline(__always)
    package mutating func end() {
        let base = minutes.baseAddress! + row
        for k in 0..<pending.count {
            base[k] &+= pending[k]
            pending[k] = 0
        }
    }

    @inline(__always)
    package mutating func addRequests(_ n: Int, second: Int) {
        let i = second - firstMinute * 60
        precondition(i >= 0 && i < seconds.count, "a request outside the lent advance")
        secondsInUse = LoadCounters.grown(secondsInUse, toHold: i, step: LoadCounters.secondStep)
        seconds[i] &+= UInt32(n)
    }

    @inline(__always)
    package mutating func addLatency(_ seconds: Int64) {
        latency[min(Int(max(0, seconds) / 60), LoadCounters.latencyBins - 1)] &+= 1
    }
}
