import Dispatch
import Synchronization

/// In-place radix sort of non-negative doubles, for samples of tens of millions that a
/// comparison sort (GSL's is a heapsort) takes seconds over on one thread.
/// Non-negative doubles order as their bit patterns do, so this is an MSD radix sort of the
/// patterns, a byte at a time, permuting within the array ("American flag sort": McIlroy,
/// Bostic and McIlroy, Computing Systems 6, 1993): no second array of the sample's size.
/// The result is the ascending order, the same array whatever `threads`.
package enum RadixSort {
    /// Below this a range is finished by insertion sort.
    static let small = 48

    /// - Precondition: every value is +0 or positive (not −0, not NaN).
    package static func sortNonNegative(_ values: inout [Double], threads: Int = 1) {
        precondition(values.allSatisfy { $0.sign == .plus && !$0.isNaN }, "radix sort of a negative value or NaN")
        values.withUnsafeMutableBufferPointer { doubles in
            doubles.withMemoryRebound(to: UInt64.self) { keys in
                guard let base = keys.baseAddress else { return }
                sort(Keys(base: base), 0..<keys.count, shift: 56, threads: threads)
            }
        }
    }

    /// The keys, shared by the workers of one sort (each writes only its own ranges).
    private struct Keys: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt64>
    }

    /// Sorts `range` on the byte at `shift` and below. The first byte that splits the range hands
    /// its buckets to `threads` workers, largest first.
    private static func sort(_ keys: Keys, _ range: Range<Int>, shift: Int, threads: Int) {
        guard threads > 1 else { return sortSerially(keys.base, range, shift: shift) }
        var shift = shift
        var buckets: [Range<Int>] = []
        while shift >= 0 {
            buckets = partition(keys.base, range, shift: shift)
            if buckets.count > 1 { break }
            shift -= 8
        }
        guard shift > 0, buckets.count > 1 else { return }
        let order = buckets.sorted { $0.count > $1.count }
        let next = Atomic<Int>(0)
        let below = shift - 8
        DispatchQueue.concurrentPerform(iterations: min(threads, order.count)) { _ in
            while true {
                let b = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard b < order.count else { return }
                sortSerially(keys.base, order[b], shift: below)
            }
        }
    }

    private static func sortSerially(_ keys: UnsafeMutablePointer<UInt64>, _ range: Range<Int>, shift: Int) {
        if range.count <= small { return insertionSort(keys, range) }
        guard shift >= 0 else { return }
        for bucket in partition(keys, range, shift: shift) where bucket.count > 1 {
            sortSerially(keys, bucket, shift: shift - 8)
        }
    }

    /// Permutes `range` so that its keys are grouped by the byte at `shift`, in ascending order of
    /// that byte; returns the non-empty groups.
    private static func partition(_ keys: UnsafeMutablePointer<UInt64>, _ range: Range<Int>, shift: Int) -> [Range<Int>] {
        @inline(__always) func digit(_ k: UInt64) -> Int { Int(truncatingIfNeeded: (k >> UInt64(shift)) & 0xff) }
        var counts = [Int](repeating: 0, count: 256)
        for i in range { counts[digit(keys[i])] += 1 }
        var heads = [Int](repeating: 0, count: 256), tails = [Int](repeating: 0, count: 256)
        var at = range.lowerBound
        var buckets: [Range<Int>] = []
        for d in 0..<256 {
            heads[d] = at
            at += counts[d]
            tails[d] = at
            if counts[d] > 0 { buckets.append(heads[d]..<at) }
        }
        guard buckets.count > 1 else { return buckets }
        // Each key moves straight to the next free slot of its bucket; the key it displaces moves next.
        for d in 0..<256 {
            while heads[d] < tails[d] {
                var key = keys[heads[d]]
                var k = digit(key)
                while k != d {
                    swap(&key, &keys[heads[k]])
                    heads[k] += 1
                    k = digit(key)
                }
                keys[heads[d]] = key
                heads[d] += 1
            }
        }
        return buckets
    }

    private static func insertionSort(_ keys: UnsafeMutablePointer<UInt64>, _ range: Range<Int>) {
        guard range.count > 1 else { return }
        for i in (range.lowerBound + 1)..<range.upperBound {
            let key = keys[i]
            var j = i
            while j > range.lowerBound && keys[j - 1] > key {
                keys[j] = keys[j - 1]
                j -= 1
            }
            keys[j] = key
        }
    }
}
