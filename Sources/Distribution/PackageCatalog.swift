import EventEngine
import HealthBackend

/// What the CDN serves: every published package by sequence, with the lookups clients need.
/// A value: each shard reads its own copy (shared storage), so the hot loop's reads need no
/// dynamic exclusivity checks as a class's properties would.
package struct PackageCatalog: Sendable {
    package private(set) var publishedAt: [SimTime] = []
    package private(set) var bytes: [Int] = []
    package private(set) var isDaily: [Bool] = []
    /// Packages without keys (clients skip them when `skipsEmptyPackages`).
    package private(set) var isEmpty: [Bool] = []
    /// UTC day number of the package's covered window.
    package private(set) var day: [Int64] = []
    /// By day since `firstDay` (arrays, not dictionaries: clients look these up every check):
    /// the daily package's sequence and the first hourly package's sequence, -1 if none.
    private var dailyByDay: [Int] = []
    private var firstHourlyByDay: [Int] = []
    /// Per day: its hourly packages' sequences, and the hour index's JSON size with the first k of them.
    private var hourlySequencesByDay: [[Int]] = []
    private var hourIndexSizesByDay: [[Int]] = []
    /// The same index listing only the hours with keys (clients skipping empty packages), and the
    /// sequence of each day's first hourly package with keys (-1 if none).
    private var nonEmptyHourIndexSizesByDay: [[Int]] = []
    private var firstNonEmptyHourlyByDay: [Int] = []
    /// nonEmptyDailyPrefix[v]: daily packages with keys among sequences 0..<v.
    private var nonEmptyDailyPrefix: [Int] = [0]
    private var firstDay: Int64 = 0
    /// dailyPrefix[v]: daily packages among sequences 0..<v.
    private var dailyPrefix: [Int] = [0]

    package var count: Int { publishedAt.count }

    package mutating func append(_ p: PublishedPackage) {
        precondition(p.sequence == count, "packages must be published in sequence order (expected \(count), got \(p.sequence))")
        precondition(publishedAt.last.map { $0 <= p.publishedAt } ?? true, "packages must be published in time order")
        let d = SimClock.dayNumber(p.covers.lowerBound)
        publishedAt.append(p.publishedAt)
        bytes.append(p.bytes)
        isDaily.append(p.kind == .daily)
        isEmpty.append(p.keys.isEmpty)
        day.append(d)
        dailyPrefix.append(dailyPrefix[dailyPrefix.count - 1] + (p.kind == .daily ? 1 : 0))
        nonEmptyDailyPrefix.append(nonEmptyDailyPrefix[nonEmptyDailyPrefix.count - 1] + (p.kind == .daily && !p.keys.isEmpty ? 1 : 0))
        if count == 1 { firstDay = d }
        precondition(d >= firstDay, "a package covers a day before the first package's")
        let i = Int(d - firstDay)
        if i >= dailyByDay.count {
            dailyByDay.append(contentsOf: repeatElement(-1, count: i + 1 - dailyByDay.count))
            firstHourlyByDay.append(contentsOf: repeatElement(-1, count: i + 1 - firstHourlyByDay.count))
            hourlySequencesByDay.append(contentsOf: repeatElement([], count: i + 1 - hourlySequencesByDay.count))
            hourIndexSizesByDay.append(contentsOf: repeatElement([2], count: i + 1 - hourIndexSizesByDay.count))
            nonEmptyHourIndexSizesByDay.append(contentsOf: repeatElement([2], count: i + 1 - nonEmptyHourIndexSizesByDay.count))
            firstNonEmptyHourlyByDay.append(contentsOf: repeatElement(-1, count: i + 1 - firstNonEmptyHourlyByDay.count))
        }
        if p.kind == .daily {
            dailyByDay[i] = p.sequence
        } else {
            if firstHourlyByDay[i] < 0 { firstHourlyByDay[i] = p.sequence }
            // `[0,1,…]`: brackets, the hours' digits, commas between them.
            let n = hourlySequencesByDay[i].count
            hourlySequencesByDay[i].append(p.sequence)
            let digits = SimClock.hourOfDay(p.covers.lowerBound) < 10 ? 1 : 2
            hourIndexSizesByDay[i].append(hourIndexSizesByDay[i][n] + digits + (n > 0 ? 1 : 0))
            let listed = nonEmptyHourIndexSizesByDay[i][n]
            nonEmptyHourIndexSizesByDay[i].append(p.keys.isEmpty ? listed : listed + digits + (listed > 2 ? 1 : 0))
            if !p.keys.isEmpty && firstNonEmptyHourlyByDay[i] < 0 { firstNonEmptyHourlyByDay[i] = p.sequence }
        }
    }

    /// Sequence of the first hourly package of day `d`, if any.
    private func firstHourly(_ d: Int64) -> Int? {
        let i = d - firstDay
        guard i >= 0, i < Int64(firstHourlyByDay.count), firstHourlyByDay[Int(i)] >= 0 else { return nil }
        return firstHourlyByDay[Int(i)]
    }

    /// Packages visible at `t` are sequences 0..<visibleCount(t).
    package func visibleCount(at t: SimTime) -> Int {
        var lo = 0, hi = publishedAt.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if publishedAt[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Sequence of the first hourly package of the daily package's day (Int.max if none).
    package func firstHourlyOfDay(ofPackage s: Int) -> Int { firstHourly(day[s]) ?? Int.max }

    package func dailySequence(day d: Int64) -> Int? {
        let i = d - firstDay
        guard i >= 0, i < Int64(dailyByDay.count), dailyByDay[Int(i)] >= 0 else { return nil }
        return dailyByDay[Int(i)]
    }

    /// Whether any hourly package of `d` (with keys, if `nonEmpty`) is among the first `visible` packages.
    package func hasHourly(day d: Int64, visible: Int, nonEmpty: Bool = false) -> Bool {
        guard let f = firstHourly(d) else { return false }
        guard nonEmpty else { return f < visible }
        let g = firstNonEmptyHourlyByDay[Int(d - firstDay)]
        return g >= 0 && g < visible
    }

    /// JSON size of CWA's hour index of day `d` (`[0,1,…]`) with `visible` packages published,
    /// listing every hour or (`nonEmpty`) only those with keys.
    package func hourIndexBytes(day d: Int64, visible: Int, nonEmpty: Bool = false) -> Int {
        guard let first = firstHourly(d), first < visible else { return 0 }
        let seqs = hourlySequencesByDay[Int(d - firstDay)]
        var lo = 0, hi = seqs.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if seqs[mid] < visible { lo = mid + 1 } else { hi = mid }
        }
        return (nonEmpty ? nonEmptyHourIndexSizesByDay : hourIndexSizesByDay)[Int(d - firstDay)][lo]
    }

    /// JSON size of CWA's date index (`["2020-10-01",…]`) with `visible` packages published,
    /// listing every day or (`nonEmpty`) only days with keys.
    package func dateIndexBytes(visible: Int, nonEmpty: Bool = false) -> Int {
        let n = (nonEmpty ? nonEmptyDailyPrefix : dailyPrefix)[visible]
        return n == 0 ? 2 : 2 + n * 12 + (n - 1)
    }

    /// JSON size of Immuni's `{"oldest":…,"newest":…}` with `visible` chunks published.
    package func immuniIndexBytes(visible: Int) -> Int {
        func digits(_ x: Int) -> Int { String(x).count }
        return 22 + digits(visible > 0 ? 1 : 0) + digits(visible)
    }
}
