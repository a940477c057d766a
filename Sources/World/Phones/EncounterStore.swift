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
        self.dayIndex = dayIndex
        var rowStart = [UInt32](repeating: 0, count: phones + 1)
        for r in batch.receivers { rowStart[Int(r) + 1] += 1 }
        for p in 0..<phones { rowStart[p + 1] += rowStart[p] }
        var batchScanStart = [Int](repeating: 0, count: batch.count + 1)
        for e in 0..<batch.count { batchScanStart[e + 1] = batchScanStart[e] + Int(batch.scanCounts[e]) }

        var next = Array(rowStart.dropLast())
        var order = [Int](repeating: 0, count: batch.count)
        for e in 0..<batch.count {
            let r = Int(batch.receivers[e])
            order[Int(next[r])] = e
            next[r] += 1
        }
        identifiers = order.map { batch.identifiers[$0] }
        metadata = order.map { batch.metadata[$0] }
        var scanStart = [UInt32](repeating: 0, count: batch.count + 1)
        var scans: [StoredScan] = []
        scans.reserveCapacity(batch.scans.count)
        for (i, e) in order.enumerated() {
            scans.append(contentsOf: batch.scans[batchScanStart[e]..<batchScanStart[e + 1]])
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
