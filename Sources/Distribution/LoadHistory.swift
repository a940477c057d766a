/// The CDN load of the minutes every shard has finished, summed over shards, in bins of one minute
/// (when the per-minute table is written) or one hour: counters and the peak requests/s of each
/// bin (the peak of the shards' summed seconds). Shards fold into it after each `advance`, so
/// per-second counters live for a day, not for the whole run.
package struct LoadHistory {
    /// Minutes per bin: 1 or 60.
    package let binMinutes: Int
    /// bin * metricCount + metric.
    package private(set) var counters: [Int] = []
    package private(set) var peaks: [UInt32] = []
    /// Minutes folded so far (the last bin may be partly filled).
    package private(set) var minutes = 0

    package init(binMinutes: Int) {
        precondition(binMinutes == 1 || binMinutes == 60)
        self.binMinutes = binMinutes
    }

    package var bins: Int { peaks.count }

    /// Adds the shards' minutes from `minutes` up to `end`; with `drop`, the shards forget them
    /// (only for minutes no later event can touch).
    package mutating func fold(_ shards: [ClientShard], upTo end: Int, drop: Bool) {
        guard end > minutes else { return }
        let metrics = LoadCounters.metricCount
        let neededBins = (end + binMinutes - 1) / binMinutes
        if neededBins > bins {
            counters.append(contentsOf: repeatElement(0, count: (neededBins - bins) * metrics))
            peaks.append(contentsOf: repeatElement(0, count: neededBins - bins))
        }
        var seconds = [UInt32](repeating: 0, count: 60)
        for minute in minutes..<end {
            let bin = minute / binMinutes
            for i in 0..<60 { seconds[i] = 0 }
            for shard in shards {
                let c = shard.core.counters
                for m in 0..<metrics { counters[bin * metrics + m] &+= c.value(LoadCounters.Metric(rawValue: m)!, minute: minute) }
                for i in 0..<60 { seconds[i] &+= c.requests(second: minute * 60 + i) }
            }
            peaks[bin] = max(peaks[bin], seconds.max()!)
        }
        minutes = end
        if drop { for shard in shards { shard.core.counters.drop(before: end) } }
    }

    /// The counter of `metric` summed over the minutes of `range` (whole bins).
    package func value(_ metric: LoadCounters.Metric, minutes range: Range<Int>) -> Int {
        let bins = binRange(range)
        return bins.reduce(0) { $0 + counters[$1 * LoadCounters.metricCount + metric.rawValue] }
    }

    package func total(_ metric: LoadCounters.Metric) -> Int { value(metric, minutes: 0..<bins * binMinutes) }

    /// Peak requests/s over the minutes of `range` (whole bins; 0 beyond what was recorded).
    package func peak(minutes range: Range<Int>) -> Int {
        let bins = binRange(range)
        return bins.isEmpty ? 0 : Int(peaks[bins].max()!)
    }

    private func binRange(_ range: Range<Int>) -> Range<Int> {
        precondition(range.lowerBound % binMinutes == 0 && (range.upperBound % binMinutes == 0 || range.upperBound >= minutes),
                     "load history has \(binMinutes)-minute bins")
        let lower = range.lowerBound / binMinutes, upper = (range.upperBound + binMinutes - 1) / binMinutes
        return (lower..<max(lower, upper)).clamped(to: 0..<bins)
    }
}
