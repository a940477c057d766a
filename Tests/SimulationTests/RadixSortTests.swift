import Foundation
import GSL
import SimulationCore
import Testing

@Suite struct RadixSortTests {
    /// Whole numbers of bytes (the distribution report's sample), spread over many octaves, with
    /// runs of equal values and zeros; and arbitrary non-negative doubles.
    static func samples(count: Int, seed: UInt64) -> [[Double]] {
        let stream = RandomStream(seed: seed, stream: "radix-test")
        let bytes = (0..<count).map { _ -> Double in
            switch stream.uniformInt(4) {
            case 0: 0
            case 1: Double(4_500 + stream.uniformInt(3) * 1_000)
            default: (stream.uniform() * 30).rounded(.down) == 0 ? 1 : Double(stream.uniformInt(1 << 30))
            }
        }
        let reals = (0..<count).map { _ in stream.uniform() < 0.1 ? 0 : stream.exponential(mean: 1) * pow(10, stream.uniform(-300, 300)) }
        return [bytes, reals]
    }

    @Test(arguments: [0, 1, 2, 47, 48, 49, 1_000, 200_000])
    func sortsAsGSLDoesForAnyThreadCount(count: Int) {
        for sample in Self.samples(count: count, seed: UInt64(count) + 5) {
            let expected = Statistics.sorted(sample)
            for threads in [1, 2, 3] {
                var values = sample
                RadixSort.sortNonNegative(&values, threads: threads)
                let same = values.map(\.bitPattern) == expected.map(\.bitPattern)  // a Bool: no array in the message
                #expect(same, "count \(count), threads \(threads)")
            }
        }
    }

    @Test(arguments: [8, 16, 24])
    func sortsValuesThatShareTheirLeadingBytes(lowBits: Int) {
        // Keys differ only in their low bytes: the sort must descend to them before it splits.
        let stream = RandomStream(seed: 9, stream: "radix-test")
        let sample = (0..<10_000).map { _ in Double(bitPattern: 0x4130_0000_0000_0000 | UInt64(stream.uniformInt(1 << lowBits))) }
        for threads in [1, 2] {
            var values = sample
            RadixSort.sortNonNegative(&values, threads: threads)
            let same = values == Statistics.sorted(sample)
            #expect(same, "low bits \(lowBits), threads \(threads)")
        }
    }
}
