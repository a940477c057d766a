/// The shard layout `forEachShard` uses, so per-shard results can be slotted by shard index
/// (some workers get no shard when `count` is small).
struct ShardLayout {
    let per: Int
    let shards: Int

    init(count: Int, threads: Int) {
        let workers = max(1, min(threads, count))
        per = max(1, (count + workers - 1) / workers)
        shards = count == 0 ? 1 : (count + per - 1) / per
    }

    func shard(of range: Range<Int>) -> Int { range.lowerBound / per }
}
