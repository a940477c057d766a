import GSL

/// summary.json's `distribution.cdn`: what the edges answered and what reached the origin
/// (only with `distribution.cdn.edges`).
public struct CDNSummary: Equatable, Sendable, Encodable {
    /// Share of the edges' requests answered from their cache, per object class.
    public struct HitRatios: Equatable, Sendable, Encodable {
        public var index: DistributionSummary.Rate
        public var package: DistributionSummary.Rate
        public var all: DistributionSummary.Rate
    }

    public var edges: Int
    public var indexMaxAgeSeconds: Int
    public var packageMaxAgeSeconds: Int
    /// Successful client requests, all answered by an edge (client-facing load).
    public var edgeRequests: Int
    public var edgeIndexRequests: Int
    public var edgePackageRequests: Int
    public var originRequests: Int
    public var originIndexRequests: Int
    public var originPackageRequests: Int
    public var originNotModified304: Int
    public var originNotFound404: Int
    public var originBytes: Int
    public var originTerabytesPerDay: Double
    public var originMeanRequestsPerSecond: Double
    public var originPeakRequestsPerSecond: Int
    /// Origin bytes ÷ client-facing bytes.
    public var originShareOfBytes: Double
    public var hitRatio: HitRatios

    package enum CodingKeys: String, CodingKey {
        case edges, indexMaxAgeSeconds = "index_max_age_s", packageMaxAgeSeconds = "package_max_age_s"
        case edgeRequests = "edge_requests", edgeIndexRequests = "edge_index_requests", edgePackageRequests = "edge_package_requests"
        case originRequests = "origin_requests", originIndexRequests = "origin_index_requests"
        case originPackageRequests = "origin_package_requests", originNotModified304 = "origin_not_modified_304"
        case originNotFound404 = "origin_not_found_404", originBytes = "origin_bytes", originTerabytesPerDay = "origin_terabytes_per_day"
        case originMeanRequestsPerSecond = "origin_mean_requests_per_second"
        case originPeakRequestsPerSecond = "origin_peak_requests_per_second", originShareOfBytes = "origin_share_of_bytes"
        case hitRatio = "hit_ratio"
    }

    /// Hits ÷ requests with a Wilson interval from GSL (0 without requests).
    static func rate(hits: Int, requests: Int) -> DistributionSummary.Rate {
        let ci = Proportion.wilson(successes: max(0, hits), trials: max(1, requests))
        return .init(estimate: requests > 0 ? Double(hits) / Double(requests) : 0, lower: ci.lower, upper: ci.upper)
    }
}

extension DistributionModel {
    /// Client requests the edges answered, summed over shards: hour · 2 + class (0 index, 1 package).
    package func edgeRequestsByHour() -> [Int] {
        var total: [Int] = []
        for s in shards {
            guard let log = s.core.edgeLog else { continue }
            if log.requestsByHour.count > total.count { total += repeatElement(0, count: log.requestsByHour.count - total.count) }
            for (i, n) in log.requestsByHour.enumerated() { total[i] &+= n }
        }
        return total
    }

    /// The `cdn` block (nil without edges); `days` and `bytes` are the run's simulated days and client-facing bytes.
    package func cdnSummary(days: Double, clientBytes: Int) -> CDNSummary? {
        guard let origin else { return nil }
        let byHour = edgeRequestsByHour()
        let edgeIndex = stride(from: 0, to: byHour.count, by: 2).reduce(0) { $0 + byHour[$1] }
        let edgePackages = stride(from: 1, to: byHour.count, by: 2).reduce(0) { $0 + byHour[$1] }
        let oIndex = origin.total(.indexRequests), oPackages = origin.total(.packageRequests)
        let oBytes = origin.total(.bytes)
        return CDNSummary(
            edges: origin.edges, indexMaxAgeSeconds: origin.indexMaxAge, packageMaxAgeSeconds: origin.packageMaxAge,
            edgeRequests: edgeIndex + edgePackages, edgeIndexRequests: edgeIndex, edgePackageRequests: edgePackages,
            originRequests: oIndex + oPackages, originIndexRequests: oIndex, originPackageRequests: oPackages,
            originNotModified304: origin.total(.notModified), originNotFound404: origin.total(.notFound), originBytes: oBytes,
            originTerabytesPerDay: Double(oBytes) / days / 1e12, originMeanRequestsPerSecond: Double(oIndex + oPackages) / days / 86_400,
            originPeakRequestsPerSecond: origin.peakPerHour.max() ?? 0,
            originShareOfBytes: clientBytes > 0 ? Double(oBytes) / Double(clientBytes) : 0,
            hitRatio: .init(index: CDNSummary.rate(hits: edgeIndex - oIndex, requests: edgeIndex),
                            package: CDNSummary.rate(hits: edgePackages - oPackages, requests: edgePackages),
                            all: CDNSummary.rate(hits: edgeIndex + edgePackages - oIndex - oPackages,
                                                 requests: edgeIndex + edgePackages)))
    }
}
