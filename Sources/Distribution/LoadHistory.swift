/// The CDN load of the minutes every shard has finished, summed over shards: per-minute counters
/// and the peak requests/s of each minute (the peak of the shards' summed seconds). Shards fold
/// into it after each `advance`, so per-second counters live for a day, not for the whole run.
package struct LoadHistory {
    /// minute * metricCount + metric.
    package private(set) var perMinute: [Int] = []
    package private(set) var peakPerMinute: [UInt32] = []

    package var minutes: Int { peakPerMinute.count }

    /// Adds the shards' minutes from `minutes` up to `end`; with `drop`, the shards forget them
    /// (only for minutes no later event can touch).
    package mutating func fold(_ shards: [ClientShard], upTo end: Int, drop: Bool) {
        let first = minutes
        guard end > first else { return }
        let metrics = LoadCounters.metricCount
        perMinute.append(contentsOf: repeatElement(0, count: (end - first) * metrics))
        peakPerMinute.append(contentsOf: repeatElement(0, count: end - first))
        var seconds = [UInt32](repeating: 0, count: 60)
        for minute in first..<end {
            for i in 0..<60 { seconds[i] = 0 }
            for shard in shards {
                let c = shard.core.counters
                for m in 0..<metrics { perMinute[minute * metrics + m] &+= c.value(LoadCounters.Metric(rawValue: m)!, minute: minute) }
                for i in 0..<60 { seconds[i] &+= c.requests(second: minute * 60 + i) }
            }
            peakPerMinute[minute] = seconds.max()!
        }
        if drop { for shard in shards { shard.core.counters.drop(before: end) } }
    }

    package func value(_ metric: LoadCounters.Metric, minute: Int) -> Int {
        let i = minute * LoadCounters.metricCount + metric.rawValue
        return i < perMinute.count ? perMinute[i] : 0
    }

    /// Peak requests/s over `range` of minutes (0 beyond what was recorded).
    package func peak(minutes range: Range<Int>) -> Int {
        let r = range.clamped(to: 0..<peakPerMinute.count)
        return r.isEmpty ? 0 : Int(peakPerMinute[r].max()!)
    }
}
