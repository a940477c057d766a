extension GroundTruthDay {
    /// Sorts a shard's raw contacts by pair: a least-significant-digit radix sort of the pair's two
    /// people packed into as few bits as the shard's largest ids need, 11 bits a pass (four passes
    /// for a million people). A comparison sort of the same contacts was 2.5% of a 1 M run.
    /// Contacts of the same pair may end in any order: the day's merge sums their seconds.
    package static func sortByPair(_ entries: inout [Entry]) {
        let n = entries.count
        guard n > 256 else { return entries.sort { $0.pair < $1.pair } }
        var largestFirst: UInt64 = 0, largestSecond: UInt64 = 0
        for e in entries {
            largestFirst = max(largestFirst, e.pair >> 32)
            largestSecond = max(largestSecond, e.pair & 0xffff_ffff)
        }
        let secondBits = UInt64(64 - largestSecond.leadingZeroBitCount)
        let bits = Int(secondBits) + 64 - largestFirst.leadingZeroBitCount
        // Packed, the key orders as the pair does: first person, then second.
        @inline(__always) func key(_ e: Entry) -> UInt64 { (e.pair >> 32) << secondBits | (e.pair & 0xffff_ffff) }
        let digitBits = 11, digits = 1 << digitBits
        var scratch = [Entry](repeating: Entry(pair: 0, within: 0, total: 0), count: n)
        var counts = [Int](repeating: 0, count: digits)
        var inScratch = false
        entries.withUnsafeMutableBufferPointer { original in
            scratch.withUnsafeMutableBufferPointer { other in
                for pass in 0..<((bits + digitBits - 1) / digitBits) {
                    let shift = UInt64(pass * digitBits), mask = UInt64(digits - 1)
                    let (from, to) = inScratch ? (other, original) : (original, other)
                    for i in 0..<digits { counts[i] = 0 }
                    for e in from { counts[Int((key(e) >> shift) & mask)] += 1 }
                    // Stable scatter to where each digit's entries start.
                    var at = 0
                    for i in 0..<digits {
                        let c = counts[i]
                        counts[i] = at
                        at += c
                    }
                    for e in from {
                        let d = Int((key(e) >> shift) & mask)
                        to[counts[d]] = e
                        counts[d] += 1
                    }
                    inScratch.toggle()
                }
                if inScratch { _ = original.update(fromContentsOf: other) }
            }
        }
    }
}
