/// The CDN load of the minutes every shard has finished, summed over shards, in bins of one
/// hour: counters and the peak requests/s of each bin (the peak of the shards' summed seconds).
/// Shards fold into it after each `advance`, so per-second counters live for a day, not for the
/// whole run; each folded minute can be handed on (distribution_minutes.csv is streamed, not kept).
package struct LoadHistory: Sendable {
    /// Minutes per bin.
    package let binMinutes = 60
    /// bin * metricCount + metric.
    package private(set) var counters: [Int] = []
    package private(set) var peaks: [UInt32] = []
    /// Minutes folded so far (the last bin may be partly filled).
    package private(set) var minutes = 0

    package init() {}

    package var bins: Int { peaks.count }

    /// Adds the shards' minutes from `minutes` up to `end`, handing each minute's counters (by
    /// metric) and peak requests/s to `eachMinute`; with `drop`, the shards forget them (only for
    /// minutes no later event can touch).
    package mutating func fold(_ shards: [ClientShard], upTo end: Int, drop: Bool,
                               eachMinute: ((_ minute: Int, _ values: [Int], _ peak: UInt32) -> Void)? = nil) {
        guard end > minutes else { return }
        let metrics = LoadCounters.metricCount
        let neededBins = (end + binMinutes - 1) / binMinutes
        if neededBins > bins {
            counters.append(contentsOf: repeatElement(0, count: (neededBins - bins) * metrics))
            peaks.append(contentsOf: repeatElement(0, count: neededBins - bins))
        }
        var seconds = [UInt32](repeating: 0, count: 60)
        var values = [Int](repeating: 0, count: metrics)
        for minute in minutes..<end {
            let bin = minute / binMinutes
            for i in 0..<60 { seconds[i] = 0 }
            for m in 0..<metrics { values[m] = 0 }
            for shard in shards {
                let c = shard.core.counters
                for m in 0..<metrics { values[m] &+= c.value(LoadCounters.Metric(rawValue: m)!, minute: minute) }
                for i in 0..<60 { seconds[i] &+= c.requests(second: minute * 60 + i) }
            }
            for m in 0..<metrics { counters[bin * metrics + m] &+= values[m] }
            let peak = seconds.max()!
            peaks[bin] = max(peaks[bin], peak)
            eachMinute?(minute, values, peak)
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
