import Dispatch
import GAEN
import SimulationCore
import Synchronization

/// One GAEN scan instance as a phone keeps it: 8 bytes.
public struct StoredScan: Sendable, Equatable, BitwiseCopyable {
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

    /// Room for `encounters` heard RPIs with `scans` scan instances in all.
    package mutating func reserve(encounters: Int, scans: Int) {
        receivers.reserveCapacity(encounters)
        identifierWords.reserveCapacity(encounters)
        identifierTails.reserveCapacity(encounters)
        metadata.reserveCapacity(encounters)
        scanColumn.reserve(encounters: encounters, scans: scans)
    }

    /// Adds one heard RPI with its scan instances.
    public mutating func add(receiver: Int32, identifier: RollingProximityIdentifier, metadata aem: UInt32, scans newScans: [StoredScan]) {
        newScans.withUnsafeBufferPointer { add(receiver: receiver, identifier: identifier, metadata: aem, scans: $0) }
    }

    /// `add` of scans in a buffer (the radio's recorder hears them into one).
    package mutating func add(receiver: Int32, identifier: RollingProximityIdentifier, metadata aem: UInt32,
                              scans newScans: UnsafeBufferPointer<StoredScan>) {
        let stored = StoredIdentifier(identifier)
        receivers.append(receiver)
        identifierWords.append(stored.word0)
        identifierTails.append(stored.tail)
        metadata.append(aem)
        scanColumn.append(newScans)
    }

    public mutating func append(_ other: EncounterBatch) {
        receivers += other.receivers
        identifierWords += other.identifierWords
        identifierTails += other.identifierTails
        metadata += other.metadata
        for e in 0..<other.count { other.scanColumn.scans(ofEncounter: e).withUnsafeBufferPointer { scanColumn.append($0) } }
    }

    /// The stored RPI of encounter `e`.
    public func identifier(_ e: Int) -> StoredIdentifier { StoredIdentifier(word0: identifierWords[e], tail: identifierTails[e]) }

    /// Scan instances of each encounter, unpacked (tests, reports).
    public var scanCounts: [UInt16] { (0..<count).map { UInt16(truncatingIfNeeded: scanColumn.scans(ofEncounter: $0).count) } }

    /// Every encounter's scans in order, unpacked (tests, reports).
    public var scans: [StoredScan] { (0..<count).flatMap { scanColumn.scans(ofEncounter: $0) } }
}

/// One day of every phone's encounters, grouped by receiving phone in compressed rows:
/// what a real phone keeps (RPI, encrypted metadata, scan instances), without a Swift
/// object per record. Encounters of phone p are `rowStart[p] ..< rowStart[p + 1]`.
/// Each RPI is kept in 12 bytes (`StoredIdentifier`), as two columns so that none is padded.
/// Matching reads every RPI but the metadata and scans only of the few that match: those
/// may live on disk (`spilled()`), about half the day's bytes.
/// A class: matching walks every day for every phone on several threads, and copying a struct
/// of arrays retained each of them, contended across the threads.
public final class EncounterDay: Sendable {
    public let dayIndex: Int
    public let rowStart: [UInt32]
    @usableFromInline let identifierWords: [UInt64]
    @usableFromInline let identifierTails: [UInt32]
    private let store: ColdStore

    /// Each encounter's metadata and scans, in memory or in a file.
    private enum Cold: Sendable {
        case memory(metadata: [UInt32], scans: ScanColumn)
        case disk(file: SpillFile, metadata: Int64, scans: SpilledScanColumn)
    }

    /// Where the cold part is now: it moves from memory to disk once, maybe on another thread
    /// (`spillingInBackground()`), while matching may read it.
    private final class ColdStore: Sendable {
        let state: Mutex<Cold>
        /// Left when the move to disk is over (at once for a day that is not moving).
        let moving = DispatchGroup()
        let failure = Mutex<(any Error)?>(nil)
        init(_ cold: Cold) { state = Mutex(cold) }
        var cold: Cold { state.withLock { $0 } }
    }

    private var cold: Cold { store.cold }

    /// Groups a batch by receiver with a stable counting sort, so the order within a phone
    /// is the production order (deterministic whatever the thread count).
    public convenience init(dayIndex: Int, phones: Int, batch: EncounterBatch) {
        self.init(dayIndex: dayIndex, phones: phones, batches: [batch])
    }

    /// As if the batches (the shards' output, in shard order) were one, without copying them into
    /// one first: at national scale a day's encounters are the largest transient. Merged on
    /// `threads` (`DayMerge`), the same day for any number.
    public init(dayIndex: Int, phones: Int, batches: [EncounterBatch], threads: Int = 1) {
        self.dayIndex = dayIndex
        let (order, rowStart) = DayMerge.group(batches, phones: phones, threads: threads)
        identifierWords = DayMerge.gather(batches.map(\.identifierWords), order: order, threads: threads)
        identifierTails = DayMerge.gather(batches.map(\.identifierTails), order: order, threads: threads)
        let metadata = DayMerge.gather(batches.map(\.metadata), order: order, threads: threads)
        self.rowStart = rowStart
        store = ColdStore(.memory(metadata: metadata, scans: ScanColumn(merging: batches.map(\.scanColumn), order: order, threads: threads)))
    }

    private init(_ day: EncounterDay, cold: Cold) {
        (dayIndex, rowStart, identifierWords, identifierTails) = (day.dayIndex, day.rowStart, day.identifierWords, day.identifierTails)
        store = ColdStore(cold)
    }

    /// The same day with its metadata and scans in an unlinked temporary file of its own (freed
    /// with the day); the RPIs stay in memory.
    /// - Throws: `SpillFile.SpillError` when the file cannot be made or written.
    public func spilled() throws -> EncounterDay {
        guard case .memory(let metadata, let scans) = cold else { return self }
        return EncounterDay(self, cold: try Self.write(metadata: metadata, scans: scans, in: SpillFile.folder))
    }

    /// Metadata and scans in a new unlinked temporary file in `folder`.
    private static func write(metadata: [UInt32], scans: ScanColumn, in folder: String) throws -> Cold {
        let file = try SpillFile(holding: "the phones' encounters", in: folder)
        let offset = try file.append(metadata)
        return .disk(file: file, metadata: offset, scans: try scans.spill(to: file))
    }

    /// `spilled()` on another thread: the same day at once, read from memory until its file is
    /// written (the write, ~50 MB a day for a million phones, took 3% of a run on the main thread).
    /// `finishSpill()` waits for the write and throws what it failed with; a day that could not be
    /// written stays in memory.
    package func spillingInBackground(folder: String = SpillFile.folder) -> EncounterDay {
        guard case .memory(let metadata, let scans) = cold else { return self }
        let day = EncounterDay(self, cold: cold)
        let store = day.store
        DispatchQueue.global().async(group: store.moving) {
            do {
                let disk = try Self.write(metadata: metadata, scans: scans, in: folder)
                store.state.withLock { $0 = disk }
            } catch {
                store.failure.withLock { $0 = error }
            }
        }
        return day
    }

    /// Waits until a move to disk begun by `spillingInBackground()` is over.
    /// - Throws: `SpillFile.SpillError` when the day could not be written.
    public func finishSpill() throws {
        store.moving.wait()
        if let error = store.failure.withLock({ $0 }) { throw error }
    }

    /// Whether the cold part is on disk (once a move to disk under way is over).
    public var isSpilled: Bool {
        store.moving.wait()
        if case .disk = cold { return true }
        return false
    }

    public var encounterCount: Int { identifierWords.count }

    /// The stored RPI of encounter `e`.
    @inlinable @inline(__always)
    public func identifier(_ e: Int) -> StoredIdentifier { StoredIdentifier(word0: identifierWords[e], tail: identifierTails[e]) }

    /// Every encounter's stored RPI, in order.
    public var identifiers: [StoredIdentifier] { (0..<encounterCount).map(identifier) }

    public func encounters(of phone: Int) -> Range<Int> { Int(rowStart[phone])..<Int(rowStart[phone + 1]) }

    /// Encounter `e`'s encrypted metadata.
    public func metadata(of e: Int) -> UInt32 {
        switch cold {
        case .memory(let metadata, _): metadata[e]
        case .disk(let file, let offset, _): file.read(UInt32.self, index: e, of: offset)
        }
    }

    /// Every encounter's encrypted metadata, in order (tests).
    public var metadata: [UInt32] {
        switch cold {
        case .memory(let metadata, _): metadata
        case .disk(let file, let offset, _): file.read(UInt32.self, count: encounterCount, at: offset)
        }
    }

    public func scans(of e: Int) -> [StoredScan] {
        switch cold {
        case .memory(_, let scans): scans.scans(ofEncounter: e)
        case .disk(_, _, let scans): scans.scans(ofEncounter: e)
        }
    }

    /// Second of day of encounter `e`'s first scan.
    public func firstSecond(of e: Int) -> UInt32 {
        switch cold {
        case .memory(_, let scans): scans.firstSecond(ofEncounter: e)
        case .disk(_, _, let scans): scans.firstSecond(ofEncounter: e)
        }
    }

    /// The scan column while it is in memory (tests of its packing).
    public var scanColumn: ScanColumn? {
        if case .memory(_, let scans) = cold { return scans }
        return nil
    }

    /// Scan instances of the day.
    public var scanInstanceCount: Int {
        switch cold {
        case .memory(_, let scans): scans.count
        case .disk(_, _, let scans): scans.count
        }
    }

    /// Bytes of the day as a phone would store them, wherever they are (daily.csv's encounter bytes).
    public var bytes: Int { memoryBytes + diskBytes }

    /// Bytes held in memory, and in the day's file (once a move to disk under way is over).
    public var memoryBytes: Int {
        store.moving.wait()
        let hot = rowStart.count * 4 + identifierWords.count * 8 + identifierTails.count * 4
        guard case .memory(let metadata, let scans) = cold else { return hot }
        return hot + metadata.count * 4 + scans.bytes
    }

    public var diskBytes: Int {
        store.moving.wait()
        guard case .disk(_, _, let scans) = cold else { return 0 }
        return encounterCount * 4 + scans.bytes
    }
}

/// Every phone's encounters of the retention window (GAEN keeps 14 days, then deletes).
public struct EncounterStore: Sendable {
    public let retentionDays: Int
    /// Whether each day's metadata and scans go to disk as it is added (`EncounterDay.spilled()`).
    public let spillsToDisk: Bool
    public private(set) var days: [EncounterDay] = []

    public init(retentionDays: Int = 14, spillsToDisk: Bool = false) {
        self.retentionDays = retentionDays
        self.spillsToDisk = spillsToDisk
    }

    /// Adds a day and deletes days that fell out of the window. A day spilled to disk is written
    /// while the simulation goes on; the next `add` waits for it.
    /// - Throws: `SpillFile.SpillError` when the previous day could not be written to disk.
    public mutating func add(_ day: EncounterDay) throws {
        try days.last?.finishSpill()
        expire(before: day.dayIndex)
        days.append(spillsToDisk ? day.spillingInBackground() : day)
    }

    /// Deletes the days that fall out of the window once `dayIndex` is added: called before the
    /// day's contacts, so that the day leaving is not held while the day arriving is built.
    public mutating func expire(before dayIndex: Int) {
        days.removeAll { $0.dayIndex <= dayIndex - retentionDays }
    }

    /// Bytes of the days held (`EncounterDay.bytes`), and of their parts in memory and on disk.
    public var bytes: Int { days.reduce(0) { $0 + $1.bytes } }
    public var memoryBytes: Int { days.reduce(0) { $0 + $1.memoryBytes } }
    public var diskBytes: Int { days.reduce(0) { $0 + $1.diskBytes } }
}
