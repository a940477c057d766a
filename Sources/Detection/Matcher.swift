import EventEngine
import GAEN
import HealthBackend
import SimulationCore
import Synchronization
import World

/// Each phone's downloads of one detection run: phone p's are `all[rowStart[p] ..< rowStart[p + 1]]`, sorted by time.
public struct PhoneDownloads: Sendable {
    public let all: [PackageDownload]
    public let rowStart: [Int]

    /// - Parameter sorted: downloads sorted by phone (then time), every phone below `phones`.
    public init(sorted: [PackageDownload], phones: Int, threads: Int = 1) {
        // Each chunk of rows sets the starts of the phones from the one after its previous row's
        // phone to its own last row's: chunks write disjoint phones (8.5 M rows a day at 1 M people).
        let rowStart = [Int](unsafeUninitializedCapacity: phones + 1) { starts, initialized in
            let out = SharedBuffer(base: starts)
            let rows = sorted
            let chunks = ShardLayout(count: rows.count, threads: threads, shardsPerThread: 4)
            chunks.forEach(threads: threads) { range in
                var next = range.lowerBound == 0 ? 0 : Int(rows[range.lowerBound - 1].phone) + 1
                for i in range {
                    let p = Int(rows[i].phone)
                    // Writes below go through a buffer: a phone out of range must stop here.
                    precondition(p < phones, "download by app phone \(p) of \(phones)")
                    while next <= p { out.base[next] = i; next += 1 }
                }
            }
            let after = rows.isEmpty ? 0 : Int(rows[rows.count - 1].phone) + 1
            for p in after...phones { out.base[p] = rows.count }
            initialized = phones + 1
        }
        (all, self.rowStart) = (sorted, rowStart)
    }

    /// Whether `downloads` are in (phone, time, package) order, checked in parallel chunks.
    package static func inPhoneOrder(_ downloads: [PackageDownload], threads: Int) -> Bool {
        let chunks = ShardLayout(count: max(0, downloads.count - 1), threads: threads, shardsPerThread: 4)
        let unordered = Atomic<Bool>(false)
        chunks.forEach(threads: threads) { range in
            for i in range where (downloads[i + 1].phone, downloads[i + 1].at, downloads[i + 1].package)
                < (downloads[i].phone, downloads[i].at, downloads[i].package) {
                unordered.store(true, ordering: .relaxed)
                return
            }
        }
        return !unordered.load(ordering: .relaxed)
    }
}

/// One stored encounter whose RPI belongs to a published key the phone has downloaded.
public struct EncounterMatch: Sendable, Equatable {
    public var phone: Int32
    /// Simulation day index of the encounter (its UTC day).
    public var dayIndex: Int32
    /// Index into `DiagnosisKeyIndex.keys`.
    public var key: Int32
    /// Encounter index within its `EncounterDay`: identifies the window.
    public var encounter: Int32
    /// Sender's Tx power, decrypted from the AEM with the key's AEMK as a phone does.
    public var transmitPower: Int8
    /// When the phone downloaded the first package holding the key (detection time).
    public var detectedAt: SimTime
    public var scans: [ScoredScan]
}

/// Matches phones' retained encounters against a key index, in parallel over contiguous
/// phone shards (several per thread, handed out as threads free up), merged in phone order
/// (identical for any thread count).
public enum Matcher {
    /// GAEN accepts an RPI up to 12 intervals (2 hours) outside its key's validity for clock drift.
    public static let clockDriftIntervals: Int64 = 12
    /// How many encounters ahead lookups are prefetched.
    package static let prefetchDistance = 8

    /// Encounters checked and matches found.
    public struct Result: Sendable {
        public var matches: [EncounterMatch]
        public var encountersChecked: Int
        /// RPIs of a fetched key heard after their key's validity ± the drift tolerance (by the
        /// receiver's clock), which GAEN does not match.
        public var outsideDriftTolerance: Int = 0
    }

    /// - Parameters:
    ///   - downloads: each phone's downloads of this detection run sorted by time (none: skip the phone).
    ///   - start: UTC midnight of simulation day 0.
    ///   - clockOffsets: each phone's clock offset in seconds, by which it timestamps what it hears (empty: exact clocks).
    public static func match(index: DiagnosisKeyIndex, store: EncounterStore, phones: Int, start: SimTime,
                             downloads: PhoneDownloads, threads: Int, clockOffsets: [Int32] = []) -> Result {
        let layout = ShardLayout(count: phones, threads: threads, shardsPerThread: 16)
        let shards = ShardResults<Result>(count: layout.shards)
        let days = store.days
        layout.forEach(threads: threads) { range in
            // Shared objects are read unretained and arrays through buffers: retaining them per phone
            // from every thread made their reference counts a contended cache line (1.3× on 2 threads).
            let unretained = days.map { Unmanaged.passUnretained($0) }
            var found: [EncounterMatch] = []
            var checked = 0, outside = 0
            downloads.all.withUnsafeBufferPointer { all in
                downloads.rowStart.withUnsafeBufferPointer { rowStart in
                    for phone in range {
                        let got = all[rowStart[phone]..<rowStart[phone + 1]]
                        if got.isEmpty { continue }
                        let offset = clockOffsets.isEmpty ? 0 : Int64(clockOffsets[phone])
                        for day in unretained {
                            day._withUnsafeGuaranteedRef { day in
                                match(phone: phone, got: got, day: day, index: index, start: start, offset: offset,
                                      found: &found, checked: &checked, outside: &outside)
                            }
                        }
                    }
                }
            }
            shards.set(layout.shard(of: range), Result(matches: found, encountersChecked: checked, outsideDriftTolerance: outside))
        }
        let all = shards.all
        return Result(matches: all.flatMap(\.matches), encountersChecked: all.reduce(0) { $0 + $1.encountersChecked },
                      outsideDriftTolerance: all.reduce(0) { $0 + $1.outsideDriftTolerance })
    }

    /// One phone's encounters of one day against the index.
    @inline(__always)
    private static func match(phone: Int, got: Slice<UnsafeBufferPointer<PackageDownload>>, day: EncounterDay, index: DiagnosisKeyIndex,
                              start: SimTime, offset: Int64, found: inout [EncounterMatch], checked: inout Int, outside: inout Int) {
        let midnight = start + Int64(day.dayIndex) * SimDuration.day
        let encounters = day.encounters(of: phone)
        for e in encounters {
            checked += 1
            if e + prefetchDistance < encounters.upperBound { index.prefetch(day.identifier(e + prefetchDistance)) }
            guard let hit = index.lookup(day.identifier(e)) else { continue }
            let packages = index.packagesOfKey[hit.key]
            let heardAt = midnight + Int64(day.firstSecond(of: e))
            // The phone must hold a package with the key, fetched after it heard the
            // encounter (the earliest such download is the detection).
            guard let first = got.first(where: { d in d.at > heardAt && packages.contains(d.package) }) else { continue }
            let tek = index.keys[hit.key].key.temporaryExposureKey
            let heardInterval = (heardAt + offset) / ENIntervalNumber.secondsPerInterval
            let validFrom = Int64(tek.rollingStartIntervalNumber.rawValue) - clockDriftIntervals
            let validTo = Int64(tek.rollingStartIntervalNumber.rawValue) + Int64(tek.rollingPeriod) + clockDriftIntervals
            guard heardInterval >= validFrom, heardInterval < validTo else {
                outside += 1
                continue
            }
            let metadata = index.metadataKeys[hit.key].decrypt(AssociatedEncryptedMetadata(rawValue: day.metadata(of: e)),
                                                                identifier: hit.identifier)
            found.append(EncounterMatch(
                phone: Int32(phone), dayIndex: Int32(day.dayIndex), key: Int32(hit.key), encounter: Int32(e),
                transmitPower: metadata.transmitPowerDBm, detectedAt: first.at,
                scans: day.scans(of: e).map { ScoredScan(typicalAttenuation: Int($0.typicalAttenuation), seconds: Int($0.secondsSinceLastScan)) }))
        }
    }
}
