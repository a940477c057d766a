import SimulationCore

/// The CDN load of the minutes every shard has finished, summed over shards, in bins of one
/// hour: counters and the peak requests/s of each bin (the peak of the shards' summed seconds).
/// Shards fold into it after each `advance`, so per-second counters live for a day, not for the
/// whole run; each folded minute can be handed on (distribution_minutes.csv is streamed, not kept).
package struct LoadHistory: Sendable {
    /// Minutes per bin.
    package let binMinutes = 60
    /// (bin - firstBin) * metricCount + metric: the bins not yet dropped.
    package private(set) var counters: [Int] = []
    package private(set) var peaks: [UInt32] = []
    /// Bins before this one were handed on (distribution_hourly.csv's rows, streamed) and dropped.
    package private(set) var firstBin = 0
    /// Each metric summed over every bin folded, dropped ones included, and the peak of them all.
    private var totals = [Int](repeating: 0, count: LoadCounters.metricCount)
    private var peakOfAll: UInt32 = 0
    /// Minutes folded so far (the last bin may be partly filled).
    package private(set) var minutes = 0

    package init() {}

    /// Bins folded so far, dropped ones included.
    package var bins: Int { firstBin + peaks.count }

    /// Forgets the bins before `bin` (whole bins already handed on); totals and the peak keep them.
    package mutating func dropBins(before bin: Int) {
        let n = min(bin, bins) - firstBin
        guard n > 0 else { return }
        counters.removeFirst(n * LoadCounters.metricCount)
        peaks.removeFirst(n)
        firstBin += n
    }

    /// Reserves room for `minutes` minutes at once: growing by doubling would hold the old and the
    /// new copy together, the peak of a long run's memory. Untouched room costs no resident memory.
    package mutating func reserve(minutes: Int) {
        let bins = (minutes + binMinutes - 1) / binMinutes
        counters.reserveCapacity(bins * LoadCounters.metricCount)
        peaks.reserveCapacity(bins)
    }

    /// Adds the shards' minutes from `minutes` up to `end`, handing each minute's counters (by
    /// metric) and peak requests/s to `eachMinute`; with `drop`, the shards forget them (only for
    /// minutes no later event can touch). The shards' minutes are summed in parts of the day on
    /// up to `threads` threads (integer sums: the same for any count).
    package mutating func fold(_ shards: [ClientShard], upTo end: Int, drop: Bool, threads: Int = 1,
                               eachMinute: ((_ minute: Int, _ values: [Int], _ peak: UInt32) -> Void)? = nil) {
        guard end > minutes else { return }
        let metrics = LoadCounters.metricCount
        let neededBins = (end + binMinutes - 1) / binMinutes
        if neededBins > bins {
            counters.append(contentsOf: repeatElement(0, count: (neededBins - bins) * metrics))
            peaks.append(contentsOf: repeatElement(0, count: neededBins - bins))
        }
        let first = firstBin
        // The shards' minutes are summed a block at a time (one pass over each shard's arrays),
        // then handed on minute by minute: 1,440 minutes a day are a fixed cost of every simulated
        // day. Blocks of at most a day bound the scratch memory of a long fold.
        var minuteValues = [Int](repeating: 0, count: metrics)
        for blockStart in stride(from: minutes, to: end, by: 1_440) {
            let block = blockStart..<min(end, blockStart + 1_440)
            let (values, minutePeaks) = Self.sum(shards, minutes: block, threads: threads)
            for k in 0..<block.count {
                let minute = block.lowerBound + k, bin = minute / binMinutes - first
                for m in 0..<metrics {
                    minuteValues[m] = values[k * metrics + m]
                    counters[bin * metrics + m] &+= values[k * metrics + m]
                    totals[m] &+= values[k * metrics + m]
                }
                let peak = minutePeaks[k]
                peaks[bin] = max(peaks[bin], peak)
                peakOfAll = max(peakOfAll, peak)
                eachMinute?(minute, minuteValues, peak)
            }
        }
        minutes = end
        if drop { for shard in shards { shard.core.counters.drop(before: end) } }
    }

    /// The shards' counters summed minute by minute over `block`, and each minute's peak of the
    /// summed requests per second; parts of the block on their own threads.
    private static func sum(_ shards: [ClientShard], minutes block: Range<Int>, threads: Int) -> (values: [Int], peaks: [UInt32]) {
        let metrics = LoadCounters.metricCount
        var values = [Int](repeating: 0, count: block.count * metrics)
        var peaks = [UInt32](repeating: 0, count: block.count)
        values.withUnsafeMutableBufferPointer { v in
            peaks.withUnsafeMutableBufferPointer { p in
                let values = SharedBuffer(base: v), peaks = SharedBuffer(base: p)
                let parts = ShardLayout(count: block.count, threads: threads, shardsPerThread: 2)
                parts.forEach(threads: threads) { ks in
                    let minutes = (block.lowerBound + ks.lowerBound)..<(block.lowerBound + ks.upperBound)
                    var partValues = [Int](repeating: 0, count: ks.count * metrics)
                    var seconds = [UInt32](repeating: 0, count: ks.count * 60)
                    for shard in shards { shard.core.counters.accumulate(minutes: minutes, values: &partValues, seconds: &seconds) }
                    for (i, x) in partValues.enumerated() { values.base[ks.lowerBound * metrics + i] = x }
                    for k in 0..<ks.count { peaks.base[ks.lowerBound + k] = seconds[(k * 60)..<(k * 60 + 60)].max()! }
                }
            }
        }
        return (values, peaks)
    }

    /// The counter of `metric` summed over the minutes of `range` (whole bins not dropped).
    package func value(_ metric: LoadCounters.Metric, minutes range: Range<Int>) -> Int {
        let bins = binRange(range)
        return bins.reduce(0) { $0 + counters[($1 - firstBin) * LoadCounters.metricCount + metric.rawValue] }
    }

    package func total(_ metric: LoadCounters.Metric) -> Int { totals[metric.rawValue] }

    /// Peak requests/s over the minutes of `range` (whole bins not dropped; 0 beyond what was recorded).
    package func peak(minutes range: Range<Int>) -> Int {
        let bins = binRange(range)
        return bins.isEmpty ? 0 : Int(peaks[(bins.lowerBound - firstBin)..<(bins.upperBound - firstBin)].max()!)
    }

    /// Peak requests/s of every minute folded.
    package var peakOfRun: Int { Int(peakOfAll) }

    private func binRange(_ range: Range<Int>) -> Range<Int> {
        precondition(range.lowerBound % binMinutes == 0 && (range.upperBound % binMinutes == 0 || range.upperBound >= minutes),
                     "load history has \(binMinutes)-minute bins")
        let lower = range.lowerBound / binMinutes, upper = (range.upperBound + binMinutes - 1) / binMinutes
        let kept = (lower..<max(lower, upper)).clamped(to: 0..<bins)
        precondition(kept.isEmpty || kept.lowerBound >= firstBin, "load history bins before \(firstBin) were dropped")
        return kept
    }
}
