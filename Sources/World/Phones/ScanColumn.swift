import SimulationCore

/// A day's scan instances, by encounter: 2 bytes a scan and 4 an encounter where they allow
/// it, else `StoredScan`s (8 bytes) with a 4-byte start per encounter.
///
/// Packed, an encounter is a head (second of day of its first scan: 17 bits; scans − 1: 15 bits)
/// and one 16-bit word per scan: typical attenuation (8 bits), typical − minimum (5), and for every
/// scan after the first the scan periods since the one before (1–8, stored − 1 in 3 bits). The
/// seconds since the last scan are one value for the whole day (the receivers' scan period), and a
/// receiver's scans fall on its period's grid, so the radio's scans always allow it. Every 16th
/// encounter's first scan index is kept so that any encounter is found without a full prefix sum.
public struct ScanColumn: Sendable, Equatable {
    private var heads: [UInt32] = []
    private var checkpoints: [UInt32] = []
    private var packed: [UInt16] = []
    /// Unpacked: scans of encounter e are `full[starts[e] ..< starts[e + 1]]`.
    private var starts: [UInt32] = []
    private var full: [StoredScan] = []
    /// The day's one `secondsSinceLastScan` when packed.
    private var gap: UInt16
    public private(set) var isPacked: Bool
    /// Scan instances held.
    public private(set) var count = 0
    public private(set) var encounterCount = 0
    static let checkpointStride = 16

    /// Whether one encounter's scans fit the packed form with this gap.
    static func fits(_ scans: UnsafeBufferPointer<StoredScan>, gap: UInt16) -> Bool {
        guard let first = scans.first, gap > 0, scans.count <= 1 << 15, first.secondOfDay < 1 << 17 else { return scans.isEmpty }
        var previous: UInt32? = nil
        for s in scans {
            guard s.secondsSinceLastScan == gap, s.minimumAttenuation <= s.typicalAttenuation,
                  s.typicalAttenuation - s.minimumAttenuation < 32 else { return false }
            if let previous {
                guard s.secondOfDay > previous else { return false }
                let delta = s.secondOfDay - previous
                guard delta % UInt32(gap) == 0, delta / UInt32(gap) <= 8 else { return false }
            }
            previous = s.secondOfDay
        }
        return true
    }

    /// An empty column: packed (with the first scan's gap) until an encounter does not fit, then
    /// unpacked once and kept in `StoredScan`s.
    public init() {
        gap = 0
        isPacked = true
    }

    /// Room for `encounters` encounters of `scans` scans in all, packed (the radio's scans always are).
    mutating func reserve(encounters: Int, scans: Int) {
        heads.reserveCapacity(encounters)
        checkpoints.reserveCapacity(encounters / Self.checkpointStride + 1)
        packed.reserveCapacity(scans)
    }

    /// The day's column: the encounters of `columns` (the shards' batches) in `order` (batch << 32 |
    /// encounter). Packed, as if appended one by one, when every column is packed with one gap;
    /// then merged in parallel (`DayMerge`), the same for any thread count.
    init(merging columns: [ScanColumn], order: [UInt64], threads: Int = 1) {
        let filled = columns.filter { $0.encounterCount > 0 }
        gap = filled.first?.gap ?? 0
        let gap = self.gap
        isPacked = columns.allSatisfy(\.isPacked) && filled.allSatisfy { $0.gap == gap }
        let total = columns.reduce(0) { $0 + $1.count }
        guard isPacked else {
            starts.reserveCapacity(order.count + 1)
            starts.append(0)
            full.reserveCapacity(total)
            for record in order { columns[Int(record >> 32)].scans(ofEncounter: Int(record & 0xffff_ffff)).withUnsafeBufferPointer { append($0) } }
            return
        }
        let heads = DayMerge.gather(columns.map(\.heads), order: order, threads: threads)
        // Where each encounter's words start in its column (4 bytes an encounter, for the merge only).
        let wordStarts = ShardResults<[UInt32]>(count: columns.count)
        forEachShard(count: columns.count, threads: threads) { ks in
            for k in ks {
                var next: UInt32 = 0
                wordStarts.set(k, columns[k].heads.map { h in
                    defer { next += h >> 17 + 1 }
                    return next
                })
            }
        }
        // Where each chunk of the day's encounters starts in the day's words.
        let chunks = ShardLayout(count: order.count, threads: threads)
        var chunkWords = [Int](repeating: 0, count: chunks.shards)
        chunkWords.withUnsafeMutableBufferPointer { buffer in
            let out = SharedBuffer(base: buffer)
            chunks.forEach(threads: threads) { range in out.base[chunks.shard(of: range)] = heads[range].reduce(0) { $0 + Int($1 >> 17) + 1 } }
        }
        let chunkStart = chunkWords.reduce(into: [0]) { $0.append($0.last! + $1) }
        let encounters = order.count, stride = Self.checkpointStride
        var checkpoints = [UInt32](repeating: 0, count: (encounters + stride - 1) / stride)
        packed = withBatchColumns(columns.map(\.packed)) { words in
            withBatchColumns(wordStarts.all) { wordStarts in
                [UInt16](unsafeUninitializedCapacity: total) { buffer, initialized in
                    let out = SharedBuffer(base: buffer)
                    checkpoints.withUnsafeMutableBufferPointer { buffer in
                        let marks = SharedBuffer(base: buffer)
                        chunks.forEach(threads: threads) { range in
                            var at = chunkStart[chunks.shard(of: range)]
                            for i in range {
                                if i % stride == 0 { marks.base[i / stride] = UInt32(at) }
                                let record = order[i], n = Int(heads[i] >> 17) + 1
                                let from = words.base[Int(record >> 32)].baseAddress! + Int(wordStarts[record])
                                (out.base.baseAddress! + at).initialize(from: from, count: n)
                                at += n
                            }
                        }
                    }
                    initialized = total
                }
            }
        }
        self.heads = heads
        self.checkpoints = checkpoints
        count = total
        encounterCount = encounters
    }

    /// Moves the packed encounters to `StoredScan`s, for an encounter that does not fit.
    private mutating func unpack() {
        var starts: [UInt32] = [0], full: [StoredScan] = []
        starts.reserveCapacity(encounterCount + 1)
        full.reserveCapacity(count)
        for e in 0..<encounterCount {
            full += scans(ofEncounter: e)
            starts.append(UInt32(full.count))
        }
        (self.starts, self.full) = (starts, full)
        (heads, checkpoints, packed) = ([], [], [])
        isPacked = false
    }

    /// Appends the next encounter's scans (a buffer: a slice of the recorder's array retained it each time).
    mutating func append(_ scans: UnsafeBufferPointer<StoredScan>) {
        if isPacked && encounterCount == 0 { gap = scans.first?.secondsSinceLastScan ?? 0 }
        if isPacked && (scans.isEmpty || !Self.fits(scans, gap: gap)) { unpack() }
        defer { count += scans.count; encounterCount += 1 }
        guard isPacked else {
            full.append(contentsOf: scans)
            starts.append(UInt32(full.count))
            return
        }
        if encounterCount % Self.checkpointStride == 0 { checkpoints.append(UInt32(packed.count)) }
        var previous = scans.first!.secondOfDay
        heads.append(previous | UInt32(scans.count - 1) << 17)
        for (j, s) in scans.enumerated() {
            let periods = j == 0 ? 0 : (s.secondOfDay - previous) / UInt32(gap) - 1
            previous = s.secondOfDay
            packed.append(UInt16(s.typicalAttenuation) | UInt16(s.typicalAttenuation - s.minimumAttenuation) << 8 | UInt16(periods) << 13)
        }
    }

    /// The scans of encounter `e`, as stored.
    public func scans(ofEncounter e: Int) -> [StoredScan] {
        guard isPacked else { return Array(full[Int(starts[e])..<Int(starts[e + 1])]) }
        let block = e - e % Self.checkpointStride
        let i = Self.firstWord(checkpoint: checkpoints[e / Self.checkpointStride], headsBefore: heads[block..<e])
        let head = heads[e]
        return Self.decode(head: head, words: packed[i..<i + Int(head >> 17) + 1], gap: gap)
    }

    /// Where an encounter's words start: its block's checkpoint plus the words of the block's encounters before it.
    static func firstWord(checkpoint: UInt32, headsBefore: ArraySlice<UInt32>) -> Int {
        headsBefore.reduce(Int(checkpoint)) { $0 + Int($1 >> 17) + 1 }
    }

    /// One packed encounter's scans, from its head and its words.
    static func decode(head: UInt32, words: ArraySlice<UInt16>, gap: UInt16) -> [StoredScan] {
        var second = head & 0x1_ffff
        return words.indices.map { j in
            let w = words[j]
            if j > words.startIndex { second += (UInt32(w >> 13) + 1) * UInt32(gap) }
            let typical = UInt8(truncatingIfNeeded: w)
            return StoredScan(secondOfDay: second, typicalAttenuation: typical,
                              minimumAttenuation: typical - UInt8(truncatingIfNeeded: w >> 8 & 0x1f), secondsSinceLastScan: gap)
        }
    }

    /// Second of day of encounter `e`'s first scan.
    public func firstSecond(ofEncounter e: Int) -> UInt32 {
        isPacked ? heads[e] & 0x1_ffff : full[Int(starts[e])].secondOfDay
    }

    public var bytes: Int {
        isPacked ? heads.count * 4 + checkpoints.count * 4 + packed.count * 2 : starts.count * 4 + full.count * MemoryLayout<StoredScan>.stride
    }

    public static func == (a: ScanColumn, b: ScanColumn) -> Bool {
        a.count == b.count && a.encounterCount == b.encounterCount
            && (0..<a.encounterCount).allSatisfy { a.scans(ofEncounter: $0) == b.scans(ofEncounter: $0) }
    }
}

extension ScanColumn {
    /// Writes the column to `file` and returns the form that reads it back from there.
    func spill(to file: SpillFile) throws -> SpilledScanColumn {
        let (first, second) = isPacked ? (try file.append(heads), try file.append(packed)) : (try file.append(starts), try file.append(full))
        let checkpointsAt = isPacked ? try file.append(checkpoints) : 0
        return SpilledScanColumn(file: file, isPacked: isPacked, gap: gap, count: count, encounterCount: encounterCount, bytes: bytes,
                                 headsOrStarts: first, packedOrFull: second, checkpoints: checkpointsAt)
    }
}

/// A `ScanColumn` moved to a `SpillFile`: each read is a few small `pread`s, for the rare
/// encounter that matches a published key.
struct SpilledScanColumn: Sendable {
    let file: SpillFile
    let isPacked: Bool
    let gap: UInt16
    let count: Int
    let encounterCount: Int
    /// The column's bytes as it was in memory.
    let bytes: Int
    /// Offsets in `file` of `heads` and `packed` (packed), or `starts` and `full`.
    let headsOrStarts: Int64
    let packedOrFull: Int64
    let checkpoints: Int64

    func scans(ofEncounter e: Int) -> [StoredScan] {
        guard isPacked else {
            let range = file.read(UInt32.self, count: 2, at: headsOrStarts + Int64(e * 4))
            return file.read(StoredScan.self, count: Int(range[1] - range[0]), at: packedOrFull + Int64(Int(range[0]) * MemoryLayout<StoredScan>.stride))
        }
        let block = e - e % ScanColumn.checkpointStride
        let heads = file.read(UInt32.self, count: e - block + 1, at: headsOrStarts + Int64(block * 4))
        let checkpoint = file.read(UInt32.self, index: e / ScanColumn.checkpointStride, of: checkpoints)
        let i = ScanColumn.firstWord(checkpoint: checkpoint, headsBefore: heads.dropLast())
        let head = heads.last!
        let words = file.read(UInt16.self, count: Int(head >> 17) + 1, at: packedOrFull + Int64(i * 2))
        return ScanColumn.decode(head: head, words: words[...], gap: gap)
    }

    func firstSecond(ofEncounter e: Int) -> UInt32 {
        guard isPacked else { return file.read(StoredScan.self, index: Int(file.read(UInt32.self, index: e, of: headsOrStarts)), of: packedOrFull).secondOfDay }
        return file.read(UInt32.self, index: e, of: headsOrStarts) & 0x1_ffff
    }
}
