import Crypto
import EventEngine
import Foundation
import GAEN
import GSL
import SimulationCore

/// Turns accepted keys into signed GAEN export zips, as the two backends publish them.
///
/// - CWA: every hour the keys that became distributable in that hour join an accumulator;
///   the hour's package gets them only if there are at least `minKeysPerPackage`, otherwise the
///   hour gets an empty file and the keys shift to a later hour (shifting policy). At most
///   `maxKeysPerPackage` per file; the rest shifts too. Keys are shuffled (stream
///   "backend.shuffle", package sequence). After each UTC day, a daily package with the keys of
///   that day's hourly packages. A key is distributable `expiryPolicyMinutes` after the end of
///   its rolling period (never while still in use).
/// - Immuni: every `batchPeriodHours`, all keys uploaded since the last batch, in chunks of at
///   most `maxKeysPerPackage` with an incremental index, keys sorted by key data.
///
/// Packages and keys are deleted `retentionDays` after publication.
public final class KeyPublisher {
    public let parameters: BackendParameters
    public let seed: UInt64
    public let builder: ExportBuilder
    public let verificationKey: ExportVerificationKey

    package struct PendingKey {
        package var key: PublishedKey
        package var distributableAt: SimTime
    }
    private var pending: [PendingKey] = []
    private var accumulator: [PublishedKey] = []
    private var dayKeys: [PublishedKey] = []
    public private(set) var published: [PublishedPackage] = []
    private var handedOn = 0
    /// Sequences of the packages still on the CDN, oldest first.
    public private(set) var available: [Int] = []
    public private(set) var exports: [NamedFile] = []
    private var nextChunkIndex = 1

    public private(set) var packagesDeleted = 0
    public private(set) var keysExpiredUnpublished = 0
    public private(set) var emptyPackages = 0
    /// Builds archives in batches (`buildArchives`) instead of at each publication. An archive
    /// depends only on its own package, so a simulated day's 24 hourly files can be zipped and
    /// signed at its end in parallel, with the same bytes; nothing reads a package's size before.
    public var defersArchives = false
    /// Sequences published but not yet built (with `defersArchives`).
    private var unbuilt: [Int] = []

    public init(parameters: BackendParameters, seed: UInt64) {
        self.parameters = parameters
        self.seed = seed
        let signingKey = Self.signingKey(seed: seed)
        verificationKey = signingKey.verificationKey
        builder = ExportBuilder(signingKey: signingKey, signatureInfo: SignatureInfo(verificationKeyID: parameters.verificationKeyID),
                                keyOrder: parameters.flavor == .cwa ? .asGiven : .sortedByKeyData)
    }

    /// Reserves the package list of a whole run at once: growing by doubling would hold two
    /// copies of a long run's list together. Untouched room costs no resident memory.
    public func reserve(packages: Int) { published.reserveCapacity(packages) }

    /// The run's signing key: 32 bytes from stream ("backend.signing-key"), a valid P-256 scalar.
    public static func signingKey(seed: UInt64) -> ExportSigningKey {
        let rng = RandomStream(seed: seed, stream: "backend.signing-key")
        while true {
            if let key = try? P256.Signing.PrivateKey(rawRepresentation: rng.bytes(32)) {
                return ExportSigningKey(privateKey: key)
            }
        }
    }

    /// Accepted keys of one upload.
    public func add(_ keys: [PublishedKey], now: SimTime) {
        for key in keys {
            let tek = key.key.temporaryExposureKey
            let rollingEnd = Int64(tek.rollingStartIntervalNumber.rawValue + tek.rollingPeriod) * ENIntervalNumber.secondsPerInterval
            let at = parameters.flavor == .cwa ? max(now, rollingEnd + Int64(parameters.expiryPolicyMinutes) * SimDuration.minute) : now
            pending.append(PendingKey(key: key, distributableAt: at))
        }
    }

    public var pendingKeyCount: Int { pending.count + accumulator.count }

    /// CWA: the hourly package for [hourEnd − 1 h, hourEnd), and at midnight the previous day's daily package.
    public func publishHour(hourEnd: SimTime) throws {
        let hourStart = hourEnd - SimDuration.hour
        var waiting: [PendingKey] = []
        for p in pending {
            if p.distributableAt < hourEnd { accumulator.append(p.key) } else { waiting.append(p) }
        }
        pending = waiting
        var keys: [PublishedKey] = []
        if accumulator.count >= parameters.minKeysPerPackage {
            let n = min(accumulator.count, parameters.effectiveMaxKeysPerPackage)
            keys = Array(accumulator.prefix(n))
            accumulator.removeFirst(n)
        }
        try emit(.cwaHourly, kind: .hourly, at: hourEnd,
                 covers: hourStart..<hourEnd, keys: keys, shuffle: true)
        dayKeys += keys
        if SimClock.secondOfDay(hourEnd) == 0 {
            let dayStart = hourEnd - SimDuration.day
            let daily = dayKeys.sorted { $0.key.temporaryExposureKey.keyData < $1.key.temporaryExposureKey.keyData }
            dayKeys = []
            try emit(.cwaDaily, kind: .daily, at: hourEnd,
                     covers: dayStart..<hourEnd, keys: daily, shuffle: true)
        }
    }

    /// Immuni: chunks of every key received in [since, now).
    public func publishBatch(since: SimTime, now: SimTime) throws {
        var keys = pending.map(\.key)
        pending = []
        while !keys.isEmpty {
            let n = min(keys.count, parameters.effectiveMaxKeysPerPackage)
            let chunk = Array(keys.prefix(n))
            keys.removeFirst(n)
            try emit(.immuniChunk(nextChunkIndex), kind: .batch, at: now, covers: since..<now, keys: chunk, shuffle: false)
            nextChunkIndex += 1
        }
    }

    /// Immuni's `GET /v1/keys/index`: oldest and newest chunk index still served.
    public var chunkIndex: (oldest: Int, newest: Int)? {
        let indices = available.compactMap { seq -> Int? in
            let p = published[seq]
            guard p.kind == .batch else { return nil }
            guard case .immuniChunk(let n) = p.path else { return nil }
            return n
        }
        guard let lo = indices.min(), let hi = indices.max() else { return nil }
        return (lo, hi)
    }

    private func emit(_ path: PublishedPackage.Path, kind: PublishedPackage.Kind, at t: SimTime, covers: Range<SimTime>, keys: [PublishedKey], shuffle: Bool) throws {
        var keys = keys
        let sequence = published.count
        if shuffle {
            RandomStream(seed: seed, stream: "backend.shuffle", index: UInt64(sequence)).shuffle(&keys)
        }
        published.append(PublishedPackage(sequence: sequence, path: path, kind: kind, publishedAt: t, covers: covers, keys: keys, bytes: 0))
        available.append(sequence)
        if keys.isEmpty { emptyPackages += 1 }
        unbuilt.append(sequence)
        if !defersArchives { _ = try buildArchives(threads: 1) }
    }

    /// Zips and signs every package published since the last call, on up to `threads` threads,
    /// and sets their sizes; returns their sequences. The archives do not depend on the threads.
    public func buildArchives(threads: Int) throws -> [Int] {
        let sequences = unbuilt
        unbuilt = []
        guard !sequences.isEmpty else { return [] }
        let inputs = sequences.map { (keys: published[$0].keys.map(\.key), covers: published[$0].covers) }
        let builder = self.builder, region = parameters.region
        let results = ArchiveResults(count: inputs.count)
        forEachShard(count: inputs.count, threads: threads) { range in
            for i in range {
                results.set(i, Result {
                    try builder.archive(keys: inputs[i].keys, region: region, startTimestamp: UInt64(inputs[i].covers.lowerBound),
                                        endTimestamp: UInt64(inputs[i].covers.upperBound))
                })
            }
        }
        for (i, s) in sequences.enumerated() {
            let zip = try results.get(i)
            published[s].bytes = zip.count
            if parameters.keepExports { exports.append(NamedFile("exports/\(published[s].name).zip", [UInt8](zip))) }
        }
        return sequences
    }

    /// Deletes packages published `retentionDays` ago or earlier and keys whose period started before that.
    public func applyRetention(now: SimTime) {
        let horizon = now - Int64(parameters.retentionDays) * SimDuration.day
        while let first = available.first, published[first].publishedAt <= horizon {
            available.removeFirst()
            packagesDeleted += 1
        }
        let before = pending.count
        pending.removeAll { Int64($0.key.key.temporaryExposureKey.rollingStartIntervalNumber.rawValue) * ENIntervalNumber.secondsPerInterval < horizon }
        let accBefore = accumulator.count
        accumulator.removeAll { Int64($0.key.temporaryExposureKey.rollingStartIntervalNumber.rawValue) * ENIntervalNumber.secondsPerInterval < horizon }
        keysExpiredUnpublished += before - pending.count + accBefore - accumulator.count
    }

    /// Packages published since the last call, in publication order.
    public func takeNewPackages() -> [PublishedPackage] {
        precondition(unbuilt.isEmpty, "packages handed on before their archives were built")
        defer { handedOn = published.count }
        return Array(published[handedOn...])
    }
}

/// One slot per archive of a batch, each written by exactly one worker (raw memory: an array
/// property mutated from several threads would trip Swift's exclusivity checks).
private final class ArchiveResults: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Result<Data, any Error>?>
    private let count: Int
    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }
    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }
    func set(_ i: Int, _ r: Result<Data, any Error>) { slots[i] = r }
    func get(_ i: Int) throws -> Data { try slots[i]!.get() }
}
