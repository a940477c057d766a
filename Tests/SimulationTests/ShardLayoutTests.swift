import SimulationCore
import Synchronization
import Testing

@Suite struct ShardLayoutTests {
    @Test(arguments: [0, 1, 5, 1_000, 1_000_003])
    func taperedShardsCoverTheRangeInOrder(count: Int) {
        for threads in [1, 2, 3, 8] {
            let layout = ShardLayout(tapering: count, threads: threads, finest: 32)
            var next = 0
            for s in 0..<layout.shards {
                let r = layout.range(ofShard: s)
                #expect(r.lowerBound == next)
                #expect(!r.isEmpty || count == 0)
                if !r.isEmpty { #expect(layout.shard(of: r) == s) }
                next = r.upperBound
            }
            #expect(next == count)
            if threads == 1 { #expect(layout.shards == 1) }
        }
    }

    @Test func taperedShardsShrinkToTheFinestShare() {
        let layout = ShardLayout(tapering: 1_000_000, threads: 2, finest: 32)
        let sizes = (0..<layout.shards).map { layout.range(ofShard: $0).count }
        // The first is a quarter of all (a (2 · workers)-th), then a quarter of what is left.
        #expect(sizes.prefix(3) == [250_000, 187_500, 140_625])
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(sizes.suffix(4).allSatisfy { $0 <= 1_000_000 / 64 })
        #expect(layout.shards == 14)
    }

    @Test func evenShardsAreAsBefore() {
        let layout = ShardLayout(count: 10, threads: 3)
        #expect((0..<layout.shards).map(layout.range(ofShard:)) == [0..<4, 4..<8, 8..<10])
        #expect(layout.shard(of: 8..<10) == 2)
        let empty = ShardLayout(count: 0, threads: 4)
        #expect(empty.shards == 1 && empty.range(ofShard: 0).isEmpty && empty.shard(of: 0..<0) == 0)
    }

    @Test(arguments: [1, 2, 5])
    func everyItemRunsOnce(threads: Int) {
        let runs = Mutex([Int](repeating: 0, count: 1_000))
        forEachItem(count: 1_000, threads: threads) { i in runs.withLock { $0[i] += 1 } }
        #expect(runs.withLock { $0 } == [Int](repeating: 1, count: 1_000))
    }

    /// Each shard is sized a quarter above its last day; a layout of another shard count starts again from nothing.
    @Test func shardSizesReserveAQuarterAboveTheLastDay() {
        let sizes = ShardSizes(kinds: 2)
        sizes.begin(shards: 3)
        #expect((0..<3).allSatisfy { sizes.reservation(shard: $0) == 0 && sizes.reservation(shard: $0, kind: 1) == 0 })
        sizes.record(shard: 1, size: 1_000)
        sizes.record(shard: 1, kind: 1, size: 40)
        sizes.begin(shards: 3)
        #expect(sizes.reservation(shard: 1) == 1_250 && sizes.reservation(shard: 1, kind: 1) == 50)
        #expect(sizes.reservation(shard: 0) == 0 && sizes.reservation(shard: 2, kind: 1) == 0)
        sizes.begin(shards: 4)
        #expect(sizes.reservation(shard: 1) == 0)
    }
}
