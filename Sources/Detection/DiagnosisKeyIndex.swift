import CPrefetch
import GAEN
import HealthBackend
import SimulationCore
import World

/// Published keys with every RPI they produced, derived once per batch (real AES through
/// `BatchRPIDeriver`, sharded over threads) and held in one open-addressing hash table.
/// A key published in several packages (hourly and daily files) is indexed once.
public final class DiagnosisKeyIndex: @unchecked Sendable {
    /// Distinct keys, in first-publication order.
    public let keys: [PublishedKey]
    /// Packages (sequence numbers) each key appeared in, ascending.
    public let packagesOfKey: [[Int]]
    package let metadataKeys: [AssociatedEncryptedMetadataKey]
    /// First RPI slot of key k is `firstSlot[k]`; slots of k are its intervals in order.
    private let firstSlot: [Int]
    private let identifiers: [RollingProximityIdentifier]
    private let slotKey: [Int32]
    /// 0 = empty, else slot + 1.
    private let table: [UInt32]
    private let mask: Int

    public var identifierCount: Int { identifiers.count }

    public init(packages: [PublishedPackage], threads: Int) throws(GAENError) {
        var collected: [PublishedKey] = []
        var packagesOfKey: [[Int]] = []
        var position: [Bytes16: Int] = [:]
        for package in packages {
            for k in package.keys {
                if let i = position[k.key.temporaryExposureKey.keyData] {
                    if packagesOfKey[i].last != package.sequence { packagesOfKey[i].append(package.sequence) }
                } else {
                    position[k.key.temporaryExposureKey.keyData] = collected.count
                    collected.append(k)
                    packagesOfKey.append([package.sequence])
                }
            }
        }
        for i in packagesOfKey.indices { packagesOfKey[i].sort() }
        let keys = collected
        self.keys = keys
        self.packagesOfKey = packagesOfKey

        var firstSlot = [Int](repeating: 0, count: keys.count + 1)
        for (i, k) in keys.enumerated() { firstSlot[i + 1] = firstSlot[i] + Int(k.key.temporaryExposureKey.rollingPeriod) }
        self.firstSlot = firstSlot
        let slots = firstSlot
        let total = firstSlot[keys.count]
        var identifiers = [RollingProximityIdentifier](repeating: RollingProximityIdentifier(.zero), count: total)
        var aemks = [AssociatedEncryptedMetadataKey](repeating: AssociatedEncryptedMetadataKey(keyData: .zero), count: keys.count)
        let out = SharedBuffer(base: identifiers.withUnsafeMutableBufferPointer { $0 })
        let aemkOut = SharedBuffer(base: aemks.withUnsafeMutableBufferPointer { $0 })
        let layout = ShardLayout(count: keys.count, threads: threads)
        let failures = ShardResults<String?>(count: layout.shards)
        forEachShard(count: keys.count, threads: threads) { range in
            var failure: String? = nil
            do {
                let deriver = try BatchRPIDeriver()
                for k in range {
                    let tek = keys[k].key.temporaryExposureKey
                    let sub = tek.subKeys
                    aemkOut.base[k] = sub.metadataKey
                    try deriver.derive(rpik: sub.identifierKey, firstInterval: tek.rollingStartIntervalNumber,
                                       into: UnsafeMutableBufferPointer(rebasing: out.base[slots[k]..<slots[k + 1]]))
                }
            } catch { failure = "\(error)" }
            failures.set(layout.shard(of: range), failure)
        }
        if let failure = failures.all.compactMap({ $0 }).first { throw .openSSL(failure) }
        self.identifiers = identifiers
        self.metadataKeys = aemks

        var slotKey = [Int32](repeating: 0, count: total)
        for k in 0..<keys.count { for s in firstSlot[k]..<firstSlot[k + 1] { slotKey[s] = Int32(k) } }
        self.slotKey = slotKey
        var capacity = 16
        while capacity < total * 2 { capacity <<= 1 }
        let mask = capacity - 1
        self.mask = mask
        var table = [UInt32](repeating: 0, count: capacity)
        identifiers.withUnsafeBufferPointer { ids in
            table.withUnsafeMutableBufferPointer { table in
                // The table is far larger than the caches and RPIs hash uniformly, so every insert
                // is a cache miss: start the miss of a later insert's slot while this one probes.
                let ahead = 16
                for s in 0..<total {
                    if s + ahead < total {
                        ensim_prefetch(table.baseAddress! + (Int(truncatingIfNeeded: ids[s + ahead].value.word0) & mask))
                    }
                    var h = Int(truncatingIfNeeded: ids[s].value.word0) & mask
                    while table[h] != 0 { h = (h + 1) & mask }
                    table[h] = UInt32(s + 1)
                }
            }
        }
        self.table = table
    }

    /// Starts loading the table slot `rpi` hashes to (a hint; matching calls it a few encounters
    /// ahead, so lookups, each a cache miss in a table far larger than the caches, overlap).
    @inline(__always)
    public func prefetch(_ rpi: RollingProximityIdentifier) {
        table.withUnsafeBufferPointer { ensim_prefetch($0.baseAddress! + (Int(truncatingIfNeeded: rpi.value.word0) & mask)) }
    }

    /// As `prefetch(_:)` for a stored RPI.
    @inline(__always)
    public func prefetch(_ stored: StoredIdentifier) {
        table.withUnsafeBufferPointer { ensim_prefetch($0.baseAddress! + (Int(truncatingIfNeeded: stored.word0) & mask)) }
    }

    /// The indexed RPI whose first 12 bytes are `stored`, with its key and interval, if any (a
    /// phone keeps 12 bytes of each RPI it heard; another key's RPI agrees in all 96 bits with
    /// probability 2^-96 per pair, and the table holds each RPI once).
    @inline(__always)
    public func lookup(_ stored: StoredIdentifier) -> (key: Int, interval: UInt32, identifier: RollingProximityIdentifier)? {
        var h = Int(truncatingIfNeeded: stored.word0) & mask
        while true {
            let slot = table[h]
            if slot == 0 { return nil }
            let s = Int(slot) - 1
            if stored.isPrefix(of: identifiers[s]) {
                let k = Int(slotKey[s])
                return (k, keys[k].key.temporaryExposureKey.rollingStartIntervalNumber.rawValue + UInt32(s - firstSlot[k]), identifiers[s])
            }
            h = (h + 1) & mask
        }
    }

    /// The key that produced `rpi` and the interval it belongs to, if any. RPIs are AES output,
    /// so their first 8 bytes are already a uniform hash.
    @inline(__always)
    public func lookup(_ rpi: RollingProximityIdentifier) -> (key: Int, interval: UInt32)? {
        var h = Int(truncatingIfNeeded: rpi.value.word0) & mask
        while true {
            let slot = table[h]
            if slot == 0 { return nil }
            let s = Int(slot) - 1
            if identifiers[s] == rpi {
                let k = Int(slotKey[s])
                return (k, keys[k].key.temporaryExposureKey.rollingStartIntervalNumber.rawValue + UInt32(s - firstSlot[k]))
            }
            h = (h + 1) & mask
        }
    }
}
