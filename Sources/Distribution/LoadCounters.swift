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

    @inline(__always)
    package mutating func add(_ metric: Metric, _ value: Int, minute: Int) {
        let i = (minute - firstMinute) * Self.metricCount + metric.rawValue
        if i >= perMinute.count { perMinute.append(contentsOf: repeatElement(0, count: max(i + 1 - perMinute.count, 1_440 * Self.metricCount))) }
        perMinute[i] &+= value
    }

    /// The counts of the client event being handled: they all fall in one minute, so they are
    /// summed here and added to the minute's row at once (one uniqueness and bounds check per
    /// event instead of one per count). Before the row exists each count is added directly,
    /// so `perMinute` grows exactly as with `add` alone.
    private var pending = InlineArray<14, Int>(repeating: 0)
    private var pendingMinute = 0
    private var pendingBuffered = false

    /// Starts an event in `minute`: `count` then adds to it until `endEvent`.
    @inline(__always)
    package mutating func beginEvent(minute: Int) {
        assert(Self.metricCount == pending.count, "one pending count per metric")
        pendingMinute = minute
        pendingBuffered = minute >= firstMinute && (minute - firstMinute + 1) * Self.metricCount <= perMinute.count
    }

    @inline(__always)
    package mutating func count(_ metric: Metric, _ value: Int = 1) {
        if pendingBuffered {
            pending[metric.rawValue] &+= value
        } else {
            add(metric, value, minute: pendingMinute)
        }
    }

    /// Adds the event's counts to its minute: all 14, zeros included, in a loop of fixed length
    /// (noting which were counted, to add only those, cost more than the adds it saved).
    @inline(__always)
    package mutating func endEvent() {
        guard pendingBuffered else { return }
        let base = (pendingMinute - firstMinute) * Self.metricCount
        perMinute.withUnsafeMutableBufferPointer { rows in
            let row = rows.baseAddress! + base
            for k in 0..<pending.count {
                row[k] &+= pending[k]
                pending[k] = 0
            }
        }
        pendingBuffered = false
    }

    @inline(__always)
    package mutating func addRequests(_ n: Int, second: Int) {
        let i = second - firstMinute * 60
        if i >= requestsPerSecond.count {
            requestsPerSecond.append(contentsOf: repeatElement(0, count: max(i + 1 - requestsPerSecond.count, 86_400)))
        }
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

    @inline(__always)
    package mutating func addLatency(_ seconds: Int64) {
        latencyMinutes[min(Int(max(0, seconds) / 60), Self.latencyBins - 1)] &+= 1
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
