import SimulationCore

/// Groups the shards' batches by receiving phone, in parallel: a counting sort whose result is
/// production order within each phone, the same for any thread count. The day's merge was the
/// largest serial step of a day's contacts (issue 21's parallel target).
///
/// Every encounter is a record (batch << 32 | index in batch). Phones are cut into blocks; each
/// batch counts its records per block and scatters them to its own slots of each block's range
/// (so within a block they stay in batch order), then each block sorts its own range by phone.
enum DayMerge {
    /// Phones per block, at least: a block's records (about 10 a phone) sort in a small buffer of its own.
    static let phonesPerBlock = 4096
    /// Blocks per day, at most: the per-batch, per-block counts stay small at national scale
    /// with many shards (60 M phones, 64 threads: 512 batches × 1024 blocks).
    static let maximumBlocks = 1024

    /// Every record grouped by receiver in production order, and where each phone's row starts.
    static func group(_ batches: [EncounterBatch], phones: Int, threads: Int) -> (order: [UInt64], rowStart: [UInt32]) {
        let total = batches.reduce(0) { $0 + $1.count }
        let perBlock = max(phonesPerBlock, (phones + maximumBlocks - 1) / maximumBlocks)
        let blocks = max(1, (phones + perBlock - 1) / perBlock)
        return withBatchColumns(batches.map(\.receivers)) { receivers in
            // Records of batch k in block b, then (after the prefix) where batch k's next record of block b goes.
            var slots = [Int](repeating: 0, count: batches.count * blocks)
            slots.withUnsafeMutableBufferPointer { buffer in
                let slot = SharedBuffer(base: buffer)
                // Batch by batch, to whichever worker is free: the first shards' batches are the largest.
                forEachItem(count: batches.count, threads: threads) { k in
                    for r in receivers.base[k] { slot.base[k * blocks + Int(r) / perBlock] += 1 }
                }
            }
            var starts = [Int](repeating: 0, count: blocks + 1)
            for b in 0..<blocks {
                var next = starts[b]
                for k in batches.indices {
                    let n = slots[k * blocks + b]
                    slots[k * blocks + b] = next
                    next += n
                }
                starts[b + 1] = next
            }
            let blockStart = starts
            var order = [UInt64](unsafeUninitializedCapacity: total) { buffer, initialized in
                let out = SharedBuffer(base: buffer)
                slots.withUnsafeMutableBufferPointer { buffer in
                    let slot = SharedBuffer(base: buffer)
                    forEachItem(count: batches.count, threads: threads) { k in
                        for (e, r) in receivers.base[k].enumerated() {
                            let s = k * blocks + Int(r) / perBlock
                            (out.base.baseAddress! + slot.base[s]).initialize(to: UInt64(k) << 32 | UInt64(e))
                            slot.base[s] += 1
                        }
                    }
                }
                initialized = total
            }
            let rowStart = [UInt32](unsafeUninitializedCapacity: phones + 1) { buffer, initialized in
                buffer[0] = 0
                let rows = SharedBuffer(base: buffer)
                order.withUnsafeMutableBufferPointer { buffer in
                    let records = SharedBuffer(base: buffer)
                    ShardLayout(count: blocks, threads: threads, shardsPerThread: 8).forEach(threads: threads) { range in
                        for b in range {
                            sortBlock(records.base, from: blockStart[b], to: blockStart[b + 1], phones: b * perBlock..<min(phones, (b + 1) * perBlock),
                                      receivers: receivers, rowStart: rows.base)
                        }
                    }
                }
                initialized = phones + 1
            }
            return (order, rowStart)
        }
    }

    /// Stable counting sort of one block's records by phone, writing the block's row starts.
    private static func sortBlock(_ records: UnsafeMutableBufferPointer<UInt64>, from lower: Int, to upper: Int, phones: Range<Int>,
                                  receivers: BatchColumns<Int32>, rowStart: UnsafeMutableBufferPointer<UInt32>) {
        var next = [Int](repeating: 0, count: phones.count + 1)
        let block = Array(records[lower..<upper])
        for record in block { next[Int(receivers[record]) - phones.lowerBound + 1] += 1 }
        next[0] = lower
        for i in 0..<phones.count { next[i + 1] += next[i] }
        for (i, p) in phones.enumerated() { rowStart[p + 1] = UInt32(next[i + 1]) }
        for record in block {
            let i = Int(receivers[record]) - phones.lowerBound
            records[next[i]] = record
            next[i] += 1
        }
    }

    /// `value` of every record in `order`, in order, computed in parallel.
    static func gather<T: BitwiseCopyable>(_ order: [UInt64], threads: Int, _ value: @Sendable (_ batch: Int, _ index: Int) -> T) -> [T] {
        [T](unsafeUninitializedCapacity: order.count) { buffer, initialized in
            let out = SharedBuffer(base: buffer)
            forEachShard(count: order.count, threads: threads) { range in
                for i in range { (out.base.baseAddress! + i).initialize(to: value(Int(order[i] >> 32), Int(order[i] & 0xffff_ffff))) }
            }
            initialized = order.count
        }
    }

    /// `gather` from one column of each batch.
    static func gather<T: BitwiseCopyable>(_ columns: [[T]], order: [UInt64], threads: Int) -> [T] {
        withBatchColumns(columns) { columns in gather(order, threads: threads) { k, e in columns.base[k][e] } }
    }
}

/// One column of every batch, read by the merge's workers.
struct BatchColumns<T>: @unchecked Sendable {
    let base: [UnsafeBufferPointer<T>]

    /// The value of a record (batch << 32 | index in batch).
    @inline(__always)
    subscript(record: UInt64) -> T { base[Int(record >> 32)][Int(record & 0xffff_ffff)] }
}

/// Runs `body` with a buffer of each array, all valid for the whole call: workers read the
/// batches without retaining their arrays (contended across threads).
func withBatchColumns<T, R>(_ arrays: [[T]], _ body: (BatchColumns<T>) throws -> R) rethrows -> R {
    var buffers: [UnsafeBufferPointer<T>] = []
    buffers.reserveCapacity(arrays.count)
    func nest(_ i: Int) throws -> R {
        guard i < arrays.count else { return try body(BatchColumns(base: buffers)) }
        return try arrays[i].withUnsafeBufferPointer { b in
            buffers.append(b)
            return try nest(i + 1)
        }
    }
    return try nest(0)
}
