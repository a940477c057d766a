import GAEN

/// One GAEN scan instance as a phone keeps it: 8 bytes.
public struct StoredScan: Sendable, Equatable {
    /// Seconds since the UTC midnight of the encounter's day.
    public var secondOfDay: UInt32
    public var typicalAttenuation: UInt8
    public var minimumAttenuation: UInt8
    public var secondsSinceLastScan: UInt16

    public init(secondOfDay: UInt32, typicalAttenuation: UInt8, minimumAttenuation: UInt8, secondsSinceLastScan: UInt16) {
        self.secondOfDay = secondOfDay
        self.typicalAttenuation = typicalAttenuation
        self.minimumAttenuation = minimumAttenuation
        self.secondsSinceLastScan = secondsSinceLastScan
    }
}

/// The 12 bytes of an RPI an encounter store keeps (of 16): its first word and the low half of
/// its second. RPIs are AES output, so an RPI of another key agrees in these 96 bits with
/// probability 2^-96; matching compares all of them (see `Matcher`).
public struct StoredIdentifier: Hashable, Sendable {
    public let word0: UInt64
    public let tail: UInt32

    public init(_ rpi: RollingProximityIdentifier) {
        word0 = rpi.value.word0
        tail = UInt32(truncatingIfNeeded: rpi.value.word1)
    }

    @usableFromInline init(word0: UInt64, tail: UInt32) {
        self.word0 = word0
        self.tail = tail
    }

    /// Whether `rpi` begins with these 12 bytes.
    @inlinable @inline(__always)
    public func isPrefix(of rpi: RollingProximityIdentifier) -> Bool {
        rpi.value.word0 == word0 && UInt32(truncatingIfNeeded: rpi.value.word1) == tail
    }
}

/// Encounters being collected for one day, in the order they are produced, already in the day's
/// compact form (12-byte RPIs, scans packed while they fit): a shard's batch is the largest
/// transient of the day's contacts, and the day's merge holds it beside the day it builds.
public struct EncounterBatch: Sendable {
    public private(set) var receivers: [Int32] = []
    /// Each heard RPI's stored 12 bytes (`StoredIdentifier`), in two columns.
    fileprivate var identifierWords: [UInt64] = []
    fileprivate var identifierTails: [UInt32] = []
    public private(set) var metadata: [UInt32] = []
    public private(set) var scanColumn = ScanColumn()

    public init() {}

    public var count: Int { receivers.count }

    /// Adds one heard RPI with its scan instances.
    public mutating func add(receiver: Int32, identifier: RollingProximityIdentifier, metadata aem: UInt32, scans newScans: [StoredScan]) {
        let stored = StoredIdentifier(identifier)
        receivers.append(receiver)
        identifierWords.append(stored.word0)
        identifierTails.append(stored.tail)
        metadata.append(aem)
        scanColumn.append(newScans[...])
    }

    public mutating func append(_ other: EncounterBatch) {
        receivers += other.receivers
        identifierWords += other.identifierWords
        identifierTails += other.identifierTails
        metadata += other.metadata
        for e in 0..<other.count { scanColumn.append(other.scanColumn.scans(ofEncounter: e)[...]) }
    }

    /// The stored RPI of encounter `e`.
    public func identifier(_ e: Int) -> StoredIdentifier { StoredIdentifier(word0: identifierWords[e], tail: identifierTails[e]) }

    /// Scan instances of each encounter, unpacked (tests, reports).
    public var scanCounts: [UInt16] { (0..<count).map { UInt16(truncatingIfNeeded: scanColumn.scans(ofEncounter: $0).count) } }

    /// Every encounter's scans in order, unpacked (tests, reports).
    public var scans: [StoredScan] { (0..<count).flatMap { scanColumn.scans(ofEncounter: $0) } }
}

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
    static func fits(_ scans: ArraySlice<StoredScan>, gap: UInt16) -> Bool {
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

    /// The day's column: the encounters of `columns` (the shards' batches) in `order` (batch << 32 |
    /// encounter). Packed, as if appended one by one, when every column is packed with one gap.
    init(merging columns: [ScanColumn], order: [UInt64]) {
        let filled = columns.filter { $0.encounterCount > 0 }
        gap = filled.first?.gap ?? 0
        let gap = self.gap
        isPacked = columns.allSatisfy(\.isPacked) && filled.allSatisfy { $0.gap == gap }
        let total = columns.reduce(0) { $0 + $1.count }
        guard isPacked else {
            starts.reserveCapacity(order.count + 1)
            starts.append(0)
            full.reserveCapacity(total)
            for record in order { append(columns[Int(record >> 32)].scans(ofEncounter: Int(record & 0xffff_ffff))[...]) }
            return
        }
        heads.reserveCapacity(order.count)
        checkpoints.reserveCapacity((order.count + Self.checkpointStride - 1) / Self.checkpointStride)
        packed.reserveCapacity(total)
        // Where each encounter's words start in its column (4 bytes an encounter, for the merge only).
        let wordStarts: [[UInt32]] = columns.map { c in
            var next: UInt32 = 0
            return c.heads.map { h in
                defer { next += h >> 17 + 1 }
                return next
            }
        }
        for record in order {
            let k = Int(record >> 32), e = Int(record & 0xffff_ffff)
            let head = columns[k].heads[e]
            let first = Int(wordStarts[k][e]), n = Int(head >> 17) + 1
            if encounterCount % Self.checkpointStride == 0 { checkpoints.append(UInt32(packed.count)) }
            heads.append(head)
            packed.append(contentsOf: columns[k].packed[first..<first + n])
            count += n
            encounterCount += 1
        }
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

    /// Appends the next encounter's scans.
    mutating func append(_ scans: ArraySlice<StoredScan>) {
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
        var i = Int(checkpoints[e / Self.checkpointStride])
        for before in (e - e % Self.checkpointStride)..<e { i += Int(heads[before] >> 17) + 1 }
        let head = heads[e]
        var second = head & 0x1_ffff
        return (0...Int(head >> 17)).map { j in
            let w = packed[i + j]
            if j > 0 { second += (UInt32(w >> 13) + 1) * UInt32(gap) }
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

/// One day of every phone's encounters, grouped by receiving phone in compressed rows:
/// what a real phone keeps (RPI, encrypted metadata, scan instances), without a Swift
/// object per record. Encounters of phone p are `rowStart[p] ..< rowStart[p + 1]`.
/// Each RPI is kept in 12 bytes (`StoredIdentifier`), as two columns so that none is padded.
/// A class: matching walks every day for every phone on several threads, and copying a struct
/// of arrays retained each of them, contended across the threads.
public final class EncounterDay: Sendable {
    public let dayIndex: Int
    public let rowStart: [UInt32]
    @usableFromInline let identifierWords: [UInt64]
    @usableFromInline let identifierTails: [UInt32]
    public let metadata: [UInt32]
    /// The scans of each encounter.
    public let scans: ScanColumn

    /// Groups a batch by receiver with a stable counting sort, so the order within a phone
    /// is the production order (deterministic whatever the thread count).
    public convenience init(dayIndex: Int, phones: Int, batch: EncounterBatch) {
        self.init(dayIndex: dayIndex, phones: phones, batches: [batch])
    }

    /// As if the batches (the shards' output, in shard order) were one, without copying them into
    /// one first: at national scale a day's encounters are the largest transient.
    public init(dayIndex: Int, phones: Int, batches: [EncounterBatch]) {
        self.dayIndex = dayIndex
        var rowStart = [UInt32](repeating: 0, count: phones + 1)
        for b in batches { for r in b.receivers { rowStart[Int(r) + 1] += 1 } }
        for p in 0..<phones { rowStart[p + 1] += rowStart[p] }
        // A record is (batch << 32 | index in batch).
        let total = batches.reduce(0) { $0 + $1.count }
        var next = Array(rowStart.dropLast())
        var order = [UInt64](repeating: 0, count: total)
        for (k, b) in batches.enumerated() {
            for e in 0..<b.count {
                let r = Int(b.receivers[e])
                order[Int(next[r])] = UInt64(k) << 32 | UInt64(e)
                next[r] += 1
            }
        }
        identifierWords = order.map { batches[Int($0 >> 32)].identifierWords[Int($0 & 0xffff_ffff)] }
        identifierTails = order.map { batches[Int($0 >> 32)].identifierTails[Int($0 & 0xffff_ffff)] }
        metadata = order.map { batches[Int($0 >> 32)].metadata[Int($0 & 0xffff_ffff)] }
        self.rowStart = rowStart
        scans = ScanColumn(merging: batches.map(\.scanColumn), order: order)
    }

    public var encounterCount: Int { identifierWords.count }

    /// The stored RPI of encounter `e`.
    @inlinable @inline(__always)
    public func identifier(_ e: Int) -> StoredIdentifier { StoredIdentifier(word0: identifierWords[e], tail: identifierTails[e]) }

    /// Every encounter's stored RPI, in order.
    public var identifiers: [StoredIdentifier] { (0..<encounterCount).map(identifier) }

    public func encounters(of phone: Int) -> Range<Int> { Int(rowStart[phone])..<Int(rowStart[phone + 1]) }

    public func scans(of encounter: Int) -> [StoredScan] { scans.scans(ofEncounter: encounter) }

    /// Bytes held, for the memory report.
    public var bytes: Int {
        rowStart.count * 4 + identifierWords.count * 8 + identifierTails.count * 4 + metadata.count * 4 + scans.bytes
    }
}

/// Every phone's encounters of the retention window (GAEN keeps 14 days, then deletes).
public struct EncounterStore: Sendable {
    public let retentionDays: Int
    public private(set) var days: [EncounterDay] = []

    public init(retentionDays: Int = 14) { self.retentionDays = retentionDays }

    /// Adds a day and deletes days that fell out of the window.
    public mutating func add(_ day: EncounterDay) {
        expire(before: day.dayIndex)
        days.append(day)
    }

    /// Deletes the days that fall out of the window once `dayIndex` is added: called before the
    /// day's contacts, so that the day leaving is not held while the day arriving is built.
    public mutating func expire(before dayIndex: Int) {
        days.removeAll { $0.dayIndex <= dayIndex - retentionDays }
    }

    public var bytes: Int { days.reduce(0) { $0 + $1.bytes } }
}
