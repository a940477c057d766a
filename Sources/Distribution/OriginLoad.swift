import EventEngine

/// The origin behind the CDN's edges: which edge requests it sees, given each edge's cached copies.
///
/// HTTP caching with a fixed lifetime per object kind (`Cache-Control: max-age`): an edge without
/// a copy fetches the object (200, or 404 for a CWA hour index before the day's first package);
/// an edge whose copy is older than max-age revalidates it with a conditional request, answered
/// 304 when the object is unchanged (packages never change; indexes change as packages appear)
/// and 200 with the new body otherwise. Requests to one edge for one object in the same second
/// collapse into one origin request (as CDNs do; the shards' logs have one-second resolution).
/// Clients still see the origin's current index (stale copies are not fed back into client
/// behaviour): the model splits the load, it does not delay the downloads.
package struct OriginLoad: Sendable {
    package enum Metric: Int, CaseIterable, Sendable {
        case indexRequests, packageRequests, notModified, notFound, bytes

        package var column: String {
            switch self {
            case .indexRequests: "origin_index_requests"
            case .packageRequests: "origin_package_requests"
            case .notModified: "origin_not_modified_304"
            case .notFound: "origin_not_found_404"
            case .bytes: "origin_bytes"
            }
        }
    }

    package static let metricCount = Metric.allCases.count
    package let edges: Int
    package let indexMaxAge: Int
    package let packageMaxAge: Int
    package let httpOverheadBytes: Int
    /// Per kind and slot (number · edges + edge): the second (since the start) the edge's copy
    /// stops being fresh, and the version it holds (-1: no copy).
    private var freshUntil: [[Int]] = CachedObjectKind.allCases.map { _ in [] }
    private var versions: [[Int]] = CachedObjectKind.allCases.map { _ in [] }
    /// hour · metricCount + metric, and each hour's busiest second.
    package private(set) var perHour: [Int] = []
    package private(set) var peakPerHour: [Int] = []

    package init(edges: Int, indexMaxAge: Int, packageMaxAge: Int, httpOverheadBytes: Int) {
        self.edges = edges
        self.indexMaxAge = indexMaxAge
        self.packageMaxAge = packageMaxAge
        self.httpOverheadBytes = httpOverheadBytes
    }

    package var hours: Int { peakPerHour.count }

    package func value(_ m: Metric, hour h: Int) -> Int {
        h < hours ? perHour[h * Self.metricCount + m.rawValue] : 0
    }

    package func total(_ m: Metric) -> Int {
        (0..<hours).reduce(0) { $0 + perHour[$1 * Self.metricCount + m.rawValue] }
    }

    /// Simulates the origin requests of `window` (seconds since `start`) from the shards' logs of it.
    package mutating func fold(_ logs: [EdgeRequestLog], window: Range<Int>, catalog: PackageCatalog, flavor: DistributionFlavor,
                               start: SimTime) {
        guard !window.isEmpty, let words = logs.first?.words else { return }
        let neededHours = (window.upperBound + 3_599) / 3_600
        if neededHours > hours {
            perHour.append(contentsOf: repeatElement(0, count: (neededHours - hours) * Self.metricCount))
            peakPerHour.append(contentsOf: repeatElement(0, count: neededHours - hours))
        }
        var perSecond = [UInt32](repeating: 0, count: window.count)
        // The slots any shard touched, in a fixed order (sums do not depend on it; it keeps runs alike).
        var keys = logs.flatMap(\.touched)
        keys.sort()
        var scratch = [UInt64](repeating: 0, count: words)
        let startDay = SimClock.dayNumber(start)
        var previous = -1
        for key in keys where key != previous {
            previous = key
            let k = key % 3, slot = key / 3
            let kind = CachedObjectKind(rawValue: k)!
            for w in 0..<words { scratch[w] = 0 }
            for log in logs {
                guard let o = log.offset(kind: k, slot: slot) else { continue }
                for w in 0..<words { scratch[w] |= log.bits[o + w] }
            }
            if slot >= freshUntil[k].count {
                freshUntil[k].append(contentsOf: repeatElement(Int.min, count: slot + 1 - freshUntil[k].count))
                versions[k].append(contentsOf: repeatElement(-1, count: slot + 1 - versions[k].count))
            }
            let lifetime = max(1, kind == .package ? packageMaxAge : indexMaxAge)
            let number = slot / edges
            var from = max(freshUntil[k][slot], window.lowerBound) - window.lowerBound
            while let s = Self.firstSet(scratch, from: from, limit: window.count) {
                let t = window.lowerBound + s
                let visible = catalog.visibleCount(at: start + Int64(t))
                let (version, body): (Int, Int)
                switch kind {
                case .rootIndex:
                    if flavor == .cwa {
                        let b = catalog.dateIndexBytes(visible: visible)
                        (version, body) = (b, b)
                    } else {
                        (version, body) = (visible, catalog.immuniIndexBytes(visible: visible))
                    }
                case .hourIndex:
                    // Its JSON grows with every hour published: the size names the version (0: 404).
                    let b = catalog.hourIndexBytes(day: startDay + Int64(number), visible: visible)
                    (version, body) = (b, b)
                case .package:
                    (version, body) = (0, catalog.bytes[number])
                }
                let hour = t / 3_600
                func add(_ m: Metric, _ v: Int) { perHour[hour * Self.metricCount + m.rawValue] &+= v }
                add(kind == .package ? .packageRequests : .indexRequests, 1)
                if kind == .hourIndex && body == 0 {
                    add(.notFound, 1)
                    add(.bytes, httpOverheadBytes)
                } else if versions[k][slot] == version {
                    add(.notModified, 1)
                    add(.bytes, httpOverheadBytes)
                } else {
                    add(.bytes, httpOverheadBytes + body)
                }
                versions[k][slot] = version
                freshUntil[k][slot] = t + lifetime
                perSecond[s] &+= 1
                from = s + lifetime
            }
        }
        for (s, n) in perSecond.enumerated() where n > 0 {
            let hour = (window.lowerBound + s) / 3_600
            peakPerHour[hour] = max(peakPerHour[hour], Int(n))
        }
    }

    /// The first set bit at or after `from` and before `limit`.
    @inline(__always)
    private static func firstSet(_ bits: [UInt64], from: Int, limit: Int) -> Int? {
        guard from < limit else { return nil }
        var w = from >> 6
        var word = bits[w] & (~0 << UInt64(from & 63))
        while word == 0 {
            w += 1
            if w >= bits.count { return nil }
            word = bits[w]
        }
        let s = w << 6 + word.trailingZeroBitCount
        return s < limit ? s : nil
    }
}
