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

/// Encounters being collected for one day, in the order they are produced.
public struct EncounterBatch: Sendable {
    public var receivers: [Int32] = []
    public var identifiers: [RollingProximityIdentifier] = []
    public var metadata: [UInt32] = []
    public var scanCounts: [UInt16] = []
    public var scans: [StoredScan] = []

    public init() {}

    public var count: Int { receivers.count }

    /// Adds one heard RPI with its scan instances.
    public mutating func add(receiver: Int32, identifier: RollingProximityIdentifier, metadata aem: UInt32, scans newScans: [StoredScan]) {
        receivers.append(receiver)
        identifiers.append(identifier)
        metadata.append(aem)
        scanCounts.append(UInt16(newScans.count))
        scans.append(contentsOf: newScans)
    }

    public mutating func append(_ other: EncounterBatch) {
        receivers += other.receivers
        identifiers += other.identifiers
        metadata += other.metadata
        scanCounts += other.scanCounts
        scans += other.scans
    }
}

/// A day's scan instances, 4 bytes each where they allow it, else as `StoredScan`s (8 bytes).
///
/// Packed: second of day (17 bits), typical attenuation (8), typical − minimum (7); the seconds
/// since the last scan are one value for the whole day (the receivers' scan period). The radio's
/// scans always allow it: the day's encounters, the largest store at national scale, shrink by a quarter.
public struct ScanColumn: Sendable, Equatable {
    private var packed: [UInt32] = []
    private var full: [StoredScan] = []
    /// The day's one `secondsSinceLastScan` when packed.
    private let gap: UInt16
    public let isPacked: Bool

    /// An empty column for these scans (appended later), packed if every one of them fits.
    init(packing parts: [[StoredScan]]) {
        let first = parts.lazy.compactMap(\.first).first
        gap = first?.secondsSinceLastScan ?? 0
        let gap = self.gap
        isPacked = parts.allSatisfy { $0.allSatisfy { s in
            s.secondsSinceLastScan == gap && s.secondOfDay < 1 << 17 && s.minimumAttenuation <= s.typicalAttenuation
                && s.typicalAttenuation - s.minimumAttenuation < 128
        } }
        let total = parts.reduce(0) { $0 + $1.count }
        if isPacked { packed.reserveCapacity(total) } else { full.reserveCapacity(total) }
    }

    mutating func append(_ scans: ArraySlice<StoredScan>) {
        guard isPacked else { full.append(contentsOf: scans); return }
        for s in scans {
            packed.append(s.secondOfDay | UInt32(s.typicalAttenuation) << 17 | UInt32(s.typicalAttenuation - s.minimumAttenuation) << 25)
        }
    }

    public var count: Int { isPacked ? packed.count : full.count }

    public subscript(i: Int) -> StoredScan {
        guard isPacked else { return full[i] }
        let w = packed[i]
        let typical = UInt8(truncatingIfNeeded: w >> 17)
        return StoredScan(secondOfDay: w & 0x1_ffff, typicalAttenuation: typical,
                          minimumAttenuation: typical - UInt8(truncatingIfNeeded: w >> 25), secondsSinceLastScan: gap)
    }

    public var bytes: Int { isPacked ? packed.count * 4 : full.count * MemoryLayout<StoredScan>.stride }

    public static func == (a: ScanColumn, b: ScanColumn) -> Bool {
        a.count == b.count && (0..<a.count).allSatisfy { a[$0] == b[$0] }
    }
}

/// One day of every phone's encounters, grouped by receiving phone in compressed rows:
/// what a real phone keeps (RPI, encrypted metadata, scan instances), without a Swift
/// object per record. Encounters of phone p are `rowStart[p] ..< rowStart[p + 1]`.
public struct EncounterDay: Sendable {
    public let dayIndex: Int
    public let rowStart: [UInt32]
    public let identifiers: [RollingProximityIdentifier]
    public let metadata: [UInt32]
    /// Scans of encounter e are `scanStart[e] ..< scanStart[e + 1]`.
    public let scanStart: [UInt32]
    public let scans: ScanColumn

    /// Groups a batch by receiver with a stable counting sort, so the order within a phone
    /// is the production order (deterministic whatever the thread count).
    public init(dayIndex: Int, phones: Int, batch: EncounterBatch) {
        self.init(dayIndex: dayIndex, phones: phones, batches: [batch])
    }

    /// As if the batches (the shards' output, in shard order) were one, without copying them into
    /// one first: at national scale a day's encounters are the largest transient.
    public init(dayIndex: Int, phones: Int, batches: [EncounterBatch]) {
        self.dayIndex = dayIndex
        var rowStart = [UInt32](repeating: 0, count: phones + 1)
        for b in batches { for r in b.receivers { rowStart[Int(r) + 1] += 1 } }
        for p in 0..<phones { rowStart[p + 1] += rowStart[p] }
        // A record is (batch << 32 | index in batch); its scans start at scanOffset in its batch.
        var scanOffsets: [[Int]] = []
        for b in batches {
            var starts = [Int](repeating: 0, count: b.count + 1)
            for e in 0..<b.count { starts[e + 1] = starts[e] + Int(b.scanCounts[e]) }
            scanOffsets.append(starts)
        }
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
        identifiers = order.map { batches[Int($0 >> 32)].identifiers[Int($0 & 0xffff_ffff)] }
        metadata = order.map { batches[Int($0 >> 32)].metadata[Int($0 & 0xffff_ffff)] }
        var scanStart = [UInt32](repeating: 0, count: total + 1)
        var scans = ScanColumn(packing: batches.map(\.scans))
        for (i, record) in order.enumerated() {
            let k = Int(record >> 32), e = Int(record & 0xffff_ffff)
            scans.append(batches[k].scans[scanOffsets[k][e]..<scanOffsets[k][e + 1]])
            scanStart[i + 1] = UInt32(scans.count)
        }
        self.rowStart = rowStart
        self.scanStart = scanStart
        self.scans = scans
    }

    public var encounterCount: Int { identifiers.count }

    public func encounters(of phone: Int) -> Range<Int> { Int(rowStart[phone])..<Int(rowStart[phone + 1]) }

    public func scans(of encounter: Int) -> [StoredScan] { (Int(scanStart[encounter])..<Int(scanStart[encounter + 1])).map { scans[$0] } }

    /// Bytes held, for the memory report.
    public var bytes: Int {
        rowStart.count * 4 + identifiers.count * 16 + metadata.count * 4 + scanStart.count * 4 + scans.bytes
    }
}

/// Every phone's encounters of the retention window (GAEN keeps 14 days, then deletes).
public struct EncounterStore: Sendable {
    public let retentionDays: Int
    public private(set) var days: [EncounterDay] = []

    public init(retentionDays: Int = 14) { self.retentionDays = retentionDays }

    /// Adds a day and deletes days that fell out of the window.
    public mutating func add(_ day: EncounterDay) {
        days.append(day)
        days.removeAll { $0.dayIndex <= day.dayIndex - retentionDays }
    }

    public var bytes: Int { days.reduce(0) { $0 + $1.bytes } }
}
