import EventEngine

/// CDN load seen by one shard, per simulated minute and second since the model's start.
/// Integer counters only, so shards merge by addition and the totals never depend on threads.
package struct LoadCounters {
    package enum Metric: Int, CaseIterable {
        case indexRequests, packageRequests, retryRequests, notModified, notFound, errors, bytes, packageBytes
        case clients, sessions, downloads, offlineChecks, deferredChecks

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
            }
        }
    }

    package static let metricCount = Metric.allCases.count
    /// Latency histogram: one bin per minute up to 14 days, the last bin collects the rest.
    package static let latencyBins = 14 * 1_440 + 1

    /// minute * metricCount + metric.
    package var perMinute: [Int] = []
    /// Requests per second (peak requests/s).
    package var requestsPerSecond: [UInt32] = []
    package var latencyMinutes = [Int](repeating: 0, count: latencyBins)

    @inline(__always)
    package mutating func add(_ metric: Metric, _ value: Int, minute: Int) {
        let i = minute * Self.metricCount + metric.rawValue
        if i >= perMinute.count { perMinute.append(contentsOf: repeatElement(0, count: max(i + 1 - perMinute.count, 1_440 * Self.metricCount))) }
        perMinute[i] &+= value
    }

    @inline(__always)
    package mutating func addRequests(_ n: Int, second: Int) {
        if second >= requestsPerSecond.count {
            requestsPerSecond.append(contentsOf: repeatElement(0, count: max(second + 1 - requestsPerSecond.count, 86_400)))
        }
        requestsPerSecond[second] &+= UInt32(n)
    }

    @inline(__always)
    package mutating func addLatency(_ seconds: Int64) {
        latencyMinutes[min(Int(max(0, seconds) / 60), Self.latencyBins - 1)] &+= 1
    }

    /// Sum of shards (shard order does not matter for sums; kept in order anyway).
    package static func merged(_ parts: [LoadCounters]) -> LoadCounters {
        var total = LoadCounters()
        for p in parts {
            if p.perMinute.count > total.perMinute.count {
                total.perMinute.append(contentsOf: repeatElement(0, count: p.perMinute.count - total.perMinute.count))
            }
            for (i, v) in p.perMinute.enumerated() { total.perMinute[i] &+= v }
            if p.requestsPerSecond.count > total.requestsPerSecond.count {
                total.requestsPerSecond.append(contentsOf: repeatElement(0, count: p.requestsPerSecond.count - total.requestsPerSecond.count))
            }
            for (i, v) in p.requestsPerSecond.enumerated() { total.requestsPerSecond[i] &+= v }
            for (i, v) in p.latencyMinutes.enumerated() { total.latencyMinutes[i] &+= v }
        }
        return total
    }

    package func value(_ metric: Metric, minute: Int) -> Int {
        let i = minute * Self.metricCount + metric.rawValue
        return i < perMinute.count ? perMinute[i] : 0
    }

    package var minutes: Int { perMinute.count / Self.metricCount }
}
