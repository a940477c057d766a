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
    public let scans: [StoredScan]

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
        var scans: [StoredScan] = []
        scans.reserveCapacity(batches.reduce(0) { $0 + $1.scans.count })
        for (i, record) in order.enumerated() {
            let k = Int(record >> 32), e = Int(record & 0xffff_ffff)
            scans.append(contentsOf: batches[k].scans[scanOffsets[k][e]..<scanOffsets[k][e + 1]])
            scanStart[i + 1] = UInt32(scans.count)
        }
        self.rowStart = rowStart
        self.scanStart = scanStart
        self.scans = scans
    }

    public var encounterCount: Int { identifiers.count }

    public func encounters(of phone: Int) -> Range<Int> { Int(rowStart[phone])..<Int(rowStart[phone + 1]) }

    public func scans(of encounter: Int) -> ArraySlice<StoredScan> { scans[Int(scanStart[encounter])..<Int(scanStart[encounter + 1])] }

    /// Bytes held, for the memory report.
    public var bytes: Int {
        rowStart.count * 4 + identifiers.count * 16 + metadata.count * 4 + scanStart.count * 4 + scans.count * MemoryLayout<StoredScan>.stride
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
