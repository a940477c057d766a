import EventEngine
import GSL
import SimulationCore

/// A distribution run's outputs, ready to append to a run's results.
public struct DistributionResults: Sendable {
    /// The `distribution` section of summary.json.
    public var summary: DistributionSummary
    /// One row per simulated hour (nil when the rows were streamed to a file as the run went).
    public var hourly: ResultTable?
    /// One row per simulated minute (nil when `writesMinutes` is off or the rows were streamed
    /// to a file as the run went).
    public var perMinute: ResultTable?
    /// Publication-to-download latency histogram, one row per minute of delay.
    public var latency: ResultTable

    /// The tables as run files: distribution_hourly.csv, distribution_minutes.csv, distribution_latency.csv.
    public var tables: [NamedTable] {
        (hourly.map { [NamedTable("distribution_hourly.csv", $0)] } ?? [])
            + (perMinute.map { [NamedTable("distribution_minutes.csv", $0)] } ?? [])
            + [NamedTable("distribution_latency.csv", latency)]
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
        let counters = loadSoFar()
        let latencyMinutes = self.latencyMinutes
        let elapsed = max(1, now - start)
        let days = Double(elapsed) / 86_400
        func total(_ m: LoadCounters.Metric) -> Int { counters.total(m) }
        let index = total(.indexRequests), packages = total(.packageRequests), config = total(.configRequests)
        let requests = index + packages + config
        let bytes = total(.bytes), errors = total(.errors)
        let perDay = Double(requests) / days
        let bytesPerDay = Double(bytes) / days
        let peak = counters.peakOfRun

        // Bytes per client and day: complete days of the sampled clients (GSL quantiles).
        // One array, filled from the shards and sorted in place: a long run has a value per
        // sampled client and day (28 million in a 1 M × 28 run: GSL's heapsort took 2 s of it).
        var count = 0
        forEachCompleteClientDayBytes { _ in count += 1 }
        var sorted: [Double] = []
        sorted.reserveCapacity(count)
        forEachCompleteClientDayBytes { sorted.append(Double($0)) }
        RadixSort.sortNonNegative(&sorted, threads: shards.count)
        func q(_ p: Double) -> Double { sorted.isEmpty ? 0 : Statistics.quantile(sorted: sorted, p) }
        let meanBytes = sorted.isEmpty ? 0 : Statistics.mean(sorted)

        let latencyCount = latencyMinutes.reduce(0, +)
        func latencyQuantile(_ p: Double) -> Double {
            guard latencyCount > 0 else { return 0 }
            let target = p * Double(latencyCount)
            var cumulative = 0
            for (bin, n) in latencyMinutes.enumerated() {
                cumulative += n
                if Double(cumulative) >= target { return Double(bin) + 0.5 }
            }
            return Double(latencyMinutes.count)
        }
        let errorCI = Proportion.wilson(successes: errors, trials: max(1, requests))
        let seedScale = Double(clientCount) / CWASeedEstimate.clients
        let mbPerClientDay = meanBytes / 1e6

        let sessions = total(.sessions)
        let summary = DistributionSummary(
            flavor: flavor.rawValue, clients: clientCount, contactPhones: contactPhones, stateBytesPerClient: Self.bytesPerClient,
            simulatedDays: days, packagesPublished: publishedCount, requests: requests, indexRequests: index,
            packageRequests: packages, configRequests: parameters.countsConfig ? config : nil, retryRequests: total(.retryRequests), notModified304: total(.notModified),
            notFound404: total(.notFound), errors: errors,
            errorRate: .init(estimate: requests > 0 ? Double(errors) / Double(requests) : 0, lower: errorCI.lower, upper: errorCI.upper),
            sessions: sessions, offlineChecks: total(.offlineChecks), deferredChecks: total(.deferredChecks),
            packagesDownloaded: total(.downloads), requestsPerDay: perDay, sessionsPerDay: Double(sessions) / days, bytes: bytes,
            terabytesPerDay: bytesPerDay / 1e12, meanRequestsPerSecond: perDay / 86_400, peakRequestsPerSecond: peak,
            bytesPerClientPerDay: .init(sampledClientDays: sorted.count, mean: meanBytes, median: q(0.5), p95: q(0.95)),
            latencyMinutes: .init(downloads: latencyCount, median: latencyQuantile(0.5), p90: latencyQuantile(0.9),
                                  p99: latencyQuantile(0.99)),
            cwaSeedComparison: SeedComparison(
                note: "seed figures scaled to \(clientCount) clients (seed: 30 M)",
                requestsPerDay: .init(seed: CWASeedEstimate.requestsPerDay * seedScale, ensim: perDay),
                sessionsPerDay: .init(seed: CWASeedEstimate.requestsPerDay * seedScale, ensim: Double(sessions) / days),
                requestsPerSecond: .init(seed: CWASeedEstimate.requestsPerSecond * seedScale, ensim: perDay / 86_400),
                terabytesPerDay: .init(seed: CWASeedEstimate.terabytesPerDay * seedScale, ensim: bytesPerDay / 1e12),
                megabytesPerClientPerDay: .init(seed: CWASeedEstimate.megabytesPerClientPerDay, ensim: mbPerClientDay)),
            cdn: cdnSummary(days: days, clientBytes: bytes))

        let hours = Int(elapsed / 60) / 60
        let hourly: ResultTable?
        if let origin = self.origin {
            // With edge caches: client requests the edges answered and the origin's load, per hour.
            let edgeByHour = edgeRequestsByHour()
            let cdnColumns = ["edge_index_requests", "edge_package_requests", "origin_requests"]
                + OriginLoad.Metric.allCases.map(\.column) + ["origin_peak_requests_per_second"]
            let (start, metrics) = (self.start, hourMetrics)
            hourly = ResultTable.computed(columns: hourColumns + cdnColumns, count: hours) { h in
                var row = Self.hourRow(h, counters, start: start, metrics: metrics)
                let o = OriginLoad.Metric.allCases.map { origin.value($0, hour: h) }
                row += [h * 2 < edgeByHour.count ? edgeByHour[h * 2] : 0, h * 2 + 1 < edgeByHour.count ? edgeByHour[h * 2 + 1] : 0, o[0] + o[1]].map { .integer(Int64($0)) }
                row += o.map { .integer(Int64($0)) } + [.integer(Int64(h < origin.hours ? origin.peakPerHour[h] : 0))]
                return row
            }
        } else {
            streamHours(upTo: hours, from: counters)
            hourly = (hourStream as? MemoryTableStream)?.table ?? (hourStream == nil ? ResultTable(columns: hourColumns) : nil)
        }
        var latency = ResultTable(columns: ["latency_minute", "downloads"])
        let lastBin = latencyMinutes.lastIndex { $0 > 0 } ?? -1
        for bin in 0...max(0, lastBin) where lastBin >= 0 {
            latency.append([.integer(Int64(bin)), .integer(Int64(latencyMinutes[bin]))])
        }
        let perMinute = parameters.writesMinutes ? (minuteStream as? MemoryTableStream)?.table : nil
        return DistributionResults(summary: summary, hourly: hourly, perMinute: perMinute, latency: latency)
    }

    /// distribution_hourly.csv's columns without the edge caches'.
    var hourColumns: [String] {
        ["hour", "time_utc", "requests"] + hourMetrics.map(\.column) + ["peak_requests_per_second"]
    }

    private var hourMetrics: [LoadCounters.Metric] {
        LoadCounters.Metric.columns(countsConfig: parameters.countsConfig).filter { $0 != .clients }
    }

    /// Hour `h`'s row of distribution_hourly.csv without the edge caches' columns.
    func hourRow(_ h: Int, _ load: LoadHistory) -> [ResultTable.Cell] {
        Self.hourRow(h, load, start: start, metrics: hourMetrics)
    }

    private static func hourRow(_ h: Int, _ load: LoadHistory, start: SimTime, metrics: [LoadCounters.Metric]) -> [ResultTable.Cell] {
        let minutes = h * 60..<(h + 1) * 60
        let values = metrics.map { load.value($0, minutes: minutes) }
        let requests = values[0] + values[1] + load.value(.configRequests, minutes: minutes)
        return [.integer(Int64(h)), .text(Self.timestamp(start + Int64(h) * 3_600)), .integer(Int64(requests))]
            + values.map { .integer(Int64($0)) } + [.integer(Int64(load.peak(minutes: minutes)))]
    }

    package static func timestamp(_ t: SimTime) -> String {
        "\(CivilDate(containing: t))" + minuteOfDaySuffix[Int(SimClock.secondOfDay(t) / 60)]
    }

    /// "THH:MM:00Z" for each minute of a day (a year of minute rows formats 525,600 of them).
    static let minuteOfDaySuffix: [String] = (0..<1_440).map { m in
        let hh = m / 60, mm = m % 60
        return "T\(hh < 10 ? "0" : "")\(hh):\(mm < 10 ? "0" : "")\(mm):00Z"
    }
}
