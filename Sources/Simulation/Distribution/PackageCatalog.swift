import EventEngine

/// What the CDN serves: every published package by sequence, with the lookups clients need.
/// Mutated only by `publish`, read concurrently by the client shards in between.
final class PackageCatalog: @unchecked Sendable {
    private(set) var publishedAt: [SimTime] = []
    private(set) var bytes: [Int] = []
    private(set) var isDaily: [Bool] = []
    /// UTC day number of the package's covered window.
    private(set) var day: [Int64] = []
    private(set) var hourOfDay: [Int] = []
    private var dailyByDay: [Int64: Int] = [:]
    /// Sequence of the first hourly package of each day.
    private var firstHourly: [Int64: Int] = [:]
    /// dailyPrefix[v]: daily packages among sequences 0..<v.
    private var dailyPrefix: [Int] = [0]

    var count: Int { publishedAt.count }

    func append(_ p: PublishedPackage) {
        precondition(p.sequence == count, "packages must be published in sequence order (expected \(count), got \(p.sequence))")
        precondition(publishedAt.last.map { $0 <= p.publishedAt } ?? true, "packages must be published in time order")
        let d = SimClock.dayNumber(p.covers.lowerBound)
        publishedAt.append(p.publishedAt)
        bytes.append(p.bytes)
        isDaily.append(p.kind == .daily)
        day.append(d)
        hourOfDay.append(SimClock.hourOfDay(p.covers.lowerBound))
        dailyPrefix.append(dailyPrefix[dailyPrefix.count - 1] + (p.kind == .daily ? 1 : 0))
        if p.kind == .daily { dailyByDay[d] = p.sequence }
        if p.kind != .daily {
            if firstHourly[d] == nil { firstHourly[d] = p.sequence }
        }
    }

    /// Packages visible at `t` are sequences 0..<visibleCount(t).
    func visibleCount(at t: SimTime) -> Int {
        var lo = 0, hi = publishedAt.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if publishedAt[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Sequence of the first hourly package of the daily package's day (Int.max if none).
    func firstHourlyOfDay(ofPackage s: Int) -> Int { firstHourly[day[s]] ?? Int.max }

    func dailySequence(day d: Int64) -> Int? { dailyByDay[d] }

    /// Whether any hourly package of `d` is among the first `visible` packages.
    func hasHourly(day d: Int64, visible: Int) -> Bool {
        guard let f = firstHourly[d] else { return false }
        return f < visible
    }

    /// JSON size of CWA's hour index of day `d` (`[0,1,…]`) with `visible` packages published.
    func hourIndexBytes(day d: Int64, visible: Int) -> Int {
        guard let first = firstHourly[d], first < visible else { return 0 }
        var n = 0, digits = 0
        for s in first..<visible where !isDaily[s] && day[s] == d {
            n += 1
            digits += hourOfDay[s] < 10 ? 1 : 2
        }
        return 2 + digits + max(0, n - 1)
    }

    /// JSON size of CWA's date index (`["2020-10-01",…]`) with `visible` packages published.
    func dateIndexBytes(visible: Int) -> Int {
        let n = dailyPrefix[visible]
        return n == 0 ? 2 : 2 + n * 12 + (n - 1)
    }

    /// JSON size of Immuni's `{"oldest":…,"newest":…}` with `visible` chunks published.
    func immuniIndexBytes(visible: Int) -> Int {
        func digits(_ x: Int) -> Int { String(x).count }
        return 22 + digits(visible > 0 ? 1 : 0) + digits(visible)
    }
}
