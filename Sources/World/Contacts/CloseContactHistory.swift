import SimulationCore

/// Close contacts of every day of the run, which detection's ground truth needs at the end (a
/// case's infectious window can reach back further than any retention). The last `memoryDays`
/// stay in memory; older days go to an unlinked temporary file (in `TMPDIR`), so a year-long
/// run's memory does not grow with its days: ~16 bytes per close contact move to disk. Nothing
/// reads them before the end, so by default only the newest day waits in memory.
public final class CloseContactHistory {
    private struct Spilled {
        var dayIndex: Int
        var closeContactSeconds: Int32
        var offset: Int64
        var count: Int
    }

    public let memoryDays: Int
    private var spilled: [Spilled] = []
    private var recent: [GroundTruthDay] = []
    private var file: SpillFile?

    /// Nothing reads the history before the end: one day in memory is enough.
    public static let defaultMemoryDays = 1

    public init(memoryDays: Int = defaultMemoryDays) { self.memoryDays = max(1, memoryDays) }

    public var count: Int { spilled.count + recent.count }

    /// Bytes held in memory (the days not yet spilled) and on disk.
    public var memoryBytes: Int { recent.reduce(0) { $0 + $1.bytes } }
    public var diskBytes: Int64 { file?.size ?? 0 }

    /// - Throws: `SpillFile.SpillError` when the temporary file cannot be written (a full disk).
    public func append(_ day: GroundTruthDay) throws {
        recent.append(day)
        if recent.count > memoryDays { try spill(recent.removeFirst()) }
    }

    /// Every day, oldest first; spilled days are read back one at a time as the sequence is walked.
    public var days: some Sequence<GroundTruthDay> {
        [AnySequence(spilled.lazy.map { self.read($0) }), AnySequence(recent)].joined()
    }

    private func spill(_ day: GroundTruthDay) throws {
        let file = try self.file ?? SpillFile(holding: "the close-contact history")
        self.file = file
        let offset = try file.append(day.pairs)
        try file.append(day.secondsWithin)
        try file.append(day.secondsTotal)
        spilled.append(Spilled(dayIndex: day.dayIndex, closeContactSeconds: day.closeContactSeconds, offset: offset, count: day.pairs.count))
    }

    private func read(_ s: Spilled) -> GroundTruthDay {
        let file = self.file!
        let pairs = file.read(UInt64.self, count: s.count, at: s.offset)
        let within = file.read(Int32.self, count: s.count, at: s.offset + Int64(s.count * 8))
        let total = file.read(Int32.self, count: s.count, at: s.offset + Int64(s.count * 12))
        return GroundTruthDay(dayIndex: s.dayIndex, pairs: pairs, secondsWithin: within, secondsTotal: total,
                              closeContactSeconds: s.closeContactSeconds)
    }
}
