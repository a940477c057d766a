import EventEngine
import GSL

/// A distribution run's outputs, ready to append to a run's results.
public struct DistributionResults: Sendable {
    /// The `distribution` section of summary.json.
    public var summary: ReportValue
    /// One row per simulated hour.
    public var hourly: ResultTable
    /// One row per simulated minute.
    public var perMinute: ResultTable
    /// Publication-to-download latency histogram, one row per minute of delay.
    public var latency: ResultTable

    /// The tables as run files: distribution_hourly.csv, distribution_minutes.csv, distribution_latency.csv.
    public var tables: [NamedTable] {
        [NamedTable("distribution_hourly.csv", hourly), NamedTable("distribution_minutes.csv", perMinute),
         NamedTable("distribution_latency.csv", latency)]
    }
}

/// The CWA seed's bandwidth estimate ("Bandwidth estimations"): 2,000 cases/day × 14 keys × 28 B
/// = 392 B per case, 100% overhead, 30 M clients, 24 hourly requests per client and day.
public enum CWASeedEstimate {
    public static let clients = 30_000_000.0
    /// The seed's "requests" are sessions: index and files of one check share one HTTP session.
    public static let requestsPerDay = 720_000_000.0
    public static let requestsPerSecond = 8_500.0
    public static let terabytesPerDay = 42.8
    public static let megabytesPerClientPerDay = 1.5
}

extension DistributionModel {
    public func results() -> DistributionResults {
        let counters = mergedCounters
        let elapsed = max(1, now - start)
        let days = Double(elapsed) / 86_400
        func total(_ m: LoadCounters.Metric) -> Int { (0..<counters.minutes).reduce(0) { $0 + counters.value(m, minute: $1) } }
        let index = total(.indexRequests), packages = total(.packageRequests)
        let requests = index + packages
        let bytes = total(.bytes), errors = total(.errors)
        let perDay = Double(requests) / days
        let bytesPerDay = Double(bytes) / days
        let peak = counters.requestsPerSecond.max().map(Int.init) ?? 0

        // Bytes per client and day: complete days of the sampled clients (GSL quantiles).
        let sample = bytesPerClientCompleteDay().flatMap { $0.map(Double.init) }
        let sorted = Statistics.sorted(sample)
        func q(_ p: Double) -> Double { sorted.isEmpty ? 0 : Statistics.quantile(sorted: sorted, p) }
        let meanBytes = sorted.isEmpty ? 0 : Statistics.mean(sorted)

        let latencyCount = counters.latencyMinutes.reduce(0, +)
        func latencyQuantile(_ p: Double) -> Double {
            guard latencyCount > 0 else { return 0 }
            let target = p * Double(latencyCount)
            var cumulative = 0
            for (bin, n) in counters.latencyMinutes.enumerated() {
                cumulative += n
                if Double(cumulative) >= target { return Double(bin) + 0.5 }
            }
            return Double(counters.latencyMinutes.count)
        }
        let errorCI = Proportion.wilson(successes: errors, trials: max(1, requests))
        let seedScale = Double(clientCount) / CWASeedEstimate.clients
        let mbPerClientDay = meanBytes / 1e6

        func rate(_ x: Int, _ n: Int, _ ci: ConfidenceInterval) -> ReportValue {
            .object([("estimate", .number(n > 0 ? Double(x) / Double(n) : 0)), ("ci_lower", .number(ci.lower)),
                     ("ci_upper", .number(ci.upper))])
        }
        func comparison(_ seed: Double, _ ensim: Double) -> ReportValue {
            .object([("seed", .number(seed)), ("ensim", .number(ensim)), ("ratio", .number(seed > 0 ? ensim / seed : 0))])
        }
        let summary: ReportValue = .object([
            ("flavor", .text(flavor.rawValue)),
            ("clients", .integer(Int64(clientCount))),
            ("contact_phones", .integer(Int64(contactPhones))),
            ("state_bytes_per_client", .integer(Int64(Self.bytesPerClient))),
            ("simulated_days", .number(days)),
            ("packages_published", .integer(Int64(published.count))),
            ("requests", .integer(Int64(requests))),
            ("index_requests", .integer(Int64(index))),
            ("package_requests", .integer(Int64(packages))),
            ("retry_requests", .integer(Int64(total(.retryRequests)))),
            ("not_modified_304", .integer(Int64(total(.notModified)))),
            ("not_found_404", .integer(Int64(total(.notFound)))),
            ("errors", .integer(Int64(errors))),
            ("error_rate", rate(errors, requests, errorCI)),
            ("sessions", .integer(Int64(total(.sessions)))),
            ("offline_checks", .integer(Int64(total(.offlineChecks)))),
            ("deferred_checks", .integer(Int64(total(.deferredChecks)))),
            ("packages_downloaded", .integer(Int64(total(.downloads)))),
            ("requests_per_day", .number(perDay)),
            ("sessions_per_day", .number(Double(total(.sessions)) / days)),
            ("bytes", .integer(Int64(bytes))),
            ("terabytes_per_day", .number(bytesPerDay / 1e12)),
            ("mean_requests_per_second", .number(perDay / 86_400)),
            ("peak_requests_per_second", .integer(Int64(peak))),
            ("bytes_per_client_per_day", .object([
                ("sampled_client_days", .integer(Int64(sorted.count))),
                ("mean", .number(meanBytes)), ("median", .number(q(0.5))), ("p95", .number(q(0.95))),
            ])),
            ("latency_minutes", .object([
                ("downloads", .integer(Int64(latencyCount))),
                ("median", .number(latencyQuantile(0.5))), ("p90", .number(latencyQuantile(0.9))),
                ("p99", .number(latencyQuantile(0.99))),
            ])),
            ("cwa_seed_comparison", .object([
                ("note", .text("seed figures scaled to \(clientCount) clients (seed: 30 M)")),
                ("requests_per_day", comparison(CWASeedEstimate.requestsPerDay * seedScale, perDay)),
                ("sessions_per_day", comparison(CWASeedEstimate.requestsPerDay * seedScale, Double(total(.sessions)) / days)),
                ("requests_per_second", comparison(CWASeedEstimate.requestsPerSecond * seedScale, perDay / 86_400)),
                ("terabytes_per_day", comparison(CWASeedEstimate.terabytesPerDay * seedScale, bytesPerDay / 1e12)),
                ("megabytes_per_client_per_day", comparison(CWASeedEstimate.megabytesPerClientPerDay, mbPerClientDay)),
            ])),
        ])

        let metrics = LoadCounters.Metric.allCases
        var perMinute = ResultTable(columns: ["minute", "time_utc", "requests"] + metrics.map(\.column) + ["peak_requests_per_second"])
        var hourly = ResultTable(columns: ["hour", "time_utc", "requests"] + metrics.filter { $0 != .clients }.map(\.column)
                                 + ["peak_requests_per_second"])
        let minutes = Int(elapsed / 60)
        func peakSeconds(_ range: Range<Int>) -> Int {
            let r = range.clamped(to: 0..<counters.requestsPerSecond.count)
            return r.isEmpty ? 0 : Int(counters.requestsPerSecond[r].max()!)
        }
        for m in 0..<minutes {
            let values = metrics.map { counters.value($0, minute: m) }
            let t = start + Int64(m) * 60
            perMinute.append([.integer(Int64(m)), .text(Self.timestamp(t)),
                              .integer(Int64(values[0] + values[1]))] + values.map { .integer(Int64($0)) }
                             + [.integer(Int64(peakSeconds(m * 60..<(m + 1) * 60)))])
        }
        for h in 0..<(minutes / 60) {
            let hourMetrics = metrics.filter { $0 != .clients }
            let values = hourMetrics.map { m in (h * 60..<(h + 1) * 60).reduce(0) { $0 + counters.value(m, minute: $1) } }
            hourly.append([.integer(Int64(h)), .text(Self.timestamp(start + Int64(h) * 3_600)),
                           .integer(Int64(values[0] + values[1]))] + values.map { .integer(Int64($0)) }
                          + [.integer(Int64(peakSeconds(h * 3_600..<(h + 1) * 3_600)))])
        }
        var latency = ResultTable(columns: ["latency_minute", "downloads"])
        let lastBin = counters.latencyMinutes.lastIndex { $0 > 0 } ?? -1
        for bin in 0...max(0, lastBin) where lastBin >= 0 {
            latency.append([.integer(Int64(bin)), .integer(Int64(counters.latencyMinutes[bin]))])
        }
        return DistributionResults(summary: summary, hourly: hourly, perMinute: perMinute, latency: latency)
    }

    static func timestamp(_ t: SimTime) -> String {
        let s = SimClock.secondOfDay(t)
        let hh = s / 3_600, mm = s / 60 % 60
        return "\(CivilDate(containing: t))T\(hh < 10 ? "0" : "")\(hh):\(mm < 10 ? "0" : "")\(mm):00Z"
    }
}
