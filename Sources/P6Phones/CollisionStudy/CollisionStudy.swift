import Dispatch
import Foundation
import GSL
import P6
import SimulationCore

/// The seed's false-match study: disclosed epochs (real P6 epochs, HMAC frame codes) against
/// receiver epochs full of unrelated slice codes. Every match found is a false match.
public struct P6CollisionParameters: Sendable, Equatable {
    /// Disclosed epochs (each one UTC day).
    public var disclosures = 75_000
    /// Receiver epochs (receiver-days).
    public var receivers = 150_000
    /// Share of slices in which a receiver hears 0, 1, …, 7 distinct codes. ENSim's reading
    /// of the seed ("50% nothing; otherwise several per slice, up to 7, reached ~5% of the
    /// time"): mean 1.36 codes per slice, which reproduces the seed's ~5,000 single-slice
    /// code matches at its scale.
    public var codesPerSliceShares: [Double] = [0.50, 0.20, 0.10, 0.06, 0.04, 0.03, 0.02, 0.05]
    /// Slice code width; 32 for iBeacon major + minor. Smaller widths make collisions common
    /// enough to check the window statistics against the analytic expectation.
    public var codeBits = 32
    public var window = P6Matcher.defaultWindow
    public var threshold = P6Matcher.defaultThreshold
    public var sliceSeconds = P6Epoch.defaultSliceDuration
    public var seed: UInt64 = 1
    public var threads = 1

    public init() {}

    /// Slices in a one-day epoch.
    public var slices: Int { (86_400 + sliceSeconds - 1) / sliceSeconds }
    public var meanCodesPerSlice: Double { codesPerSliceShares.enumerated().reduce(0) { $0 + Double($1.offset) * $1.element } }
}

/// Counts under one matching rule.
public struct P6CollisionCounts: Sendable, Equatable {
    /// `windows[k−1]`: matched slices s (same receiver and disclosure) with at least k matched
    /// slices in s … s+window−1. k = 1 counts single-slice matches.
    public var windows: [Int64]
    /// Clusters as `P6Matcher` reports them (≥ threshold matches within a sliding window).
    public var fullMatches: Int64
    /// Receiver epochs with at least one full match.
    public var receiversWithFullMatch: Int

    public var singleSliceMatches: Int64 { windows[0] }
}

public struct P6CollisionResult: Sendable, Equatable {
    public let parameters: P6CollisionParameters
    /// Slice codes the receivers heard in total.
    public let receivedCodes: Int64
    /// A slice matches when some received code equals the disclosed code (the seed's count).
    public let codeOnly: P6CollisionCounts
    /// A slice matches when code and proximity UUID agree (P6Matcher's rule).
    public let codeAndUUID: P6CollisionCounts
    /// Analytic expectations of `windows` for each rule (see `P6CollisionStudy.expectedWindows`).
    public let expectedCodeOnly: [Double]
    public let expectedCodeAndUUID: [Double]
}

/// Wall-clock split of a study (not part of the result, which is deterministic).
public struct P6CollisionTimings: Sendable {
    public init() {}
    public var disclosedCodesSeconds = 0.0
    public var indexSeconds = 0.0
    public var receiversSeconds = 0.0
    public var analysisSeconds = 0.0
    public var indexBytes = 0
}

/// Runs the study block by block (30 slices at a time): the disclosed codes of a block go
/// into one open-addressing hash table per slice (code → disclosures), then every receiver
/// draws its codes for the block from its own GSL stream and probes the table. Cost grows as
/// disclosures × slices (index) plus receivers × slices × codes (probes), never as their
/// product; memory is one block's index.
public enum P6CollisionStudy {
    package static let blockSlices = 30

    public static func run(_ p: P6CollisionParameters, timings: inout P6CollisionTimings) -> P6CollisionResult {
        precondition(p.disclosures >= 1 && p.disclosures < (1 << 29) - 1 && p.receivers >= 1 && p.receivers <= Int(Int32.max))
        precondition((1...32).contains(p.codeBits) && p.codesPerSliceShares.count >= 1 && p.window >= 1 && p.threshold >= 1)
        let slices = p.slices
        let mask: UInt32 = p.codeBits == 32 ? .max : (1 << UInt32(p.codeBits)) - 1
        let dayStart: Int64 = 1_601_510_400  // 2020-10-01, any UTC midnight will do
        let codeCounts = try! DiscreteDistribution(weights: p.codesPerSliceShares)

        // Disclosed epochs: real P6 epochs with secrets from per-disclosure GSL streams.
        var cursors: [P6TxCursor] = []
        cursors.reserveCapacity(p.disclosures)
        let keyStream = RandomStream(seed: p.seed, stream: "p6-collision-disclosure", generator: .taus2)
        for e in 0..<p.disclosures {
            keyStream.reseed(StreamKey(seed: p.seed, stream: "p6-collision-disclosure", index: UInt64(e)))
            let epoch = try! P6Epoch(start: dayStart, duration: 86_400, sliceDuration: p.sliceSeconds,
                                     iec: keyStream.bytes(32), epk: keyStream.bytes(32))
            cursors.append(P6TxCursor(epoch: epoch))
        }

        let tableSize = Self.tableSize(entries: p.disclosures)
        let block = blockSlices
        var table = [UInt64](repeating: 0, count: tableSize * block)
        var disclosed = [UInt64](repeating: 0, count: p.disclosures * block)
        timings.indexBytes = table.count * 8 + disclosed.count * 8 + cursors.count * 200
        let threads = max(1, p.threads)
        let receiverShards = max(1, min(threads, p.receivers))
        var matches: [Match] = []
        var receivedCodes: Int64 = 0

        for blockStart in stride(from: 0, to: slices, by: block) {
            let width = min(block, slices - blockStart)
            // Disclosed codes of the block, one HMAC per frame per disclosure, sharded over disclosures.
            var t0 = DispatchTime.now().uptimeNanoseconds
            cursors.withUnsafeMutableBufferPointer { cur in
                disclosed.withUnsafeMutableBufferPointer { out in
                    let c = SharedBuffer(base: cur), o = SharedBuffer(base: out)
                    forEachShard(count: p.disclosures, threads: threads) { range in
                        for e in range {
                            for j in 0..<width {
                                let tx = c.base[e].slice(blockStart + j)
                                o.base[e * block + j] = Self.entry(code: tx.code & mask, uuid: tx.uuidIndex, disclosure: e)
                            }
                        }
                    }
                }
            }
            var t1 = DispatchTime.now().uptimeNanoseconds
            timings.disclosedCodesSeconds += Double(t1 - t0) / 1e9
            // One hash table per slice, filled in disclosure order, sharded over slices.
            t0 = t1
            table.withUnsafeMutableBufferPointer { tb in
                disclosed.withUnsafeBufferPointer { d in
                    let t = SharedBuffer(base: tb)
                    let src = UnsafeBufferPointer(start: d.baseAddress, count: d.count)
                    let unsafeSource = SourceBox(base: src)
                    forEachShard(count: width, threads: threads) { range in
                        for j in range {
                            let sub = UnsafeMutableBufferPointer(rebasing: t.base[(j * tableSize)..<((j + 1) * tableSize)])
                            for i in sub.indices { sub[i] = 0 }
                            for e in 0..<p.disclosures { Self.insert(unsafeSource.base[e * block + j], into: sub) }
                        }
                    }
                }
            }
            t1 = DispatchTime.now().uptimeNanoseconds
            timings.indexSeconds += Double(t1 - t0) / 1e9
            // Receivers, sharded; each shard's matches kept apart and merged in shard order.
            t0 = t1
            let shardOut = ShardResults<([Match], Int64)>(count: receiverShards)
            let per = (p.receivers + receiverShards - 1) / receiverShards
            table.withUnsafeBufferPointer { tb in
                let index = SourceBox(base: tb)
                forEachShard(count: receiverShards, threads: receiverShards) { shards in
                    for w in shards {
                        var found: [Match] = []
                        var heard: Int64 = 0
                        let stream = RandomStream(seed: p.seed, stream: "p6-collision-receiver", generator: .taus2)
                        let blockIndex = UInt64(blockStart / block), blocks = UInt64((slices + block - 1) / block)
                        for r in (w * per)..<min(p.receivers, (w + 1) * per) {
                            stream.reseed(StreamKey(seed: p.seed, stream: "p6-collision-receiver", index: UInt64(r) * blocks + blockIndex))
                            for j in 0..<width {
                                let k = codeCounts.sample(stream)
                                heard += Int64(k)
                                let sub = UnsafeBufferPointer(rebasing: index.base[(j * tableSize)..<((j + 1) * tableSize)])
                                for _ in 0..<k {
                                    let code = stream.next32() & mask
                                    let uuid = Int(stream.next32() >> 29)
                                    Self.probe(code: code, uuid: uuid, in: sub) { disclosure, uuidAgrees in
                                        found.append(Match(receiver: Int32(r), disclosure: Int32(disclosure),
                                                           slice: Int32(blockStart + j), uuidAgrees: uuidAgrees))
                                    }
                                }
                            }
                        }
                        shardOut.set(w, (found, heard))
                    }
                }
            }
            for (found, heard) in shardOut.all {
                matches.append(contentsOf: found)
                receivedCodes += heard
            }
            t1 = DispatchTime.now().uptimeNanoseconds
            timings.receiversSeconds += Double(t1 - t0) / 1e9
        }

        let t0 = DispatchTime.now().uptimeNanoseconds
        let kMax = max(3, p.threshold)
        let codeOnly = count(matches, uuidRequired: false, kMax: kMax, window: p.window, threshold: p.threshold)
        let codeAndUUID = count(matches, uuidRequired: true, kMax: kMax, window: p.window, threshold: p.threshold)
        let q = pow2(-Double(p.codeBits))
        let shares = p.codesPerSliceShares.map { $0 / p.codesPerSliceShares.reduce(0, +) }
        let pairs = Double(p.receivers) * Double(p.disclosures)
        let result = P6CollisionResult(
            parameters: p, receivedCodes: receivedCodes, codeOnly: codeOnly, codeAndUUID: codeAndUUID,
            expectedCodeOnly: expectedWindows(pairs: pairs, slices: slices, codesPerSliceShares: shares, codeMatch: q,
                                              window: p.window, kMax: kMax),
            expectedCodeAndUUID: expectedWindows(pairs: pairs, slices: slices, codesPerSliceShares: shares, codeMatch: q / 8,
                                                 window: p.window, kMax: kMax))
        timings.analysisSeconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        return result
    }

    public static func run(_ p: P6CollisionParameters) -> P6CollisionResult {
        var t = P6CollisionTimings()
        return run(p, timings: &t)
    }

    // MARK: Analytic expectation

    /// Expected count of matched slices s having at least k matched slices in s … s+W−1, for
    /// k = 1 … kMax, over `pairs` independent (receiver, disclosure) pairs of `slices` slices.
    ///
    /// A receiver with K distinct-transmitter codes in a slice matches the disclosed code of
    /// that slice with probability 1 − (1 − c)^K, c = 2^−bits (code only) or 2^−bits/8 (code and
    /// one of 8 UUIDs). K is drawn afresh each slice, so slices match independently with
    /// p = Σ_K P(K)(1 − (1 − c)^K). Slice s then contributes p · P(Bin(n_s, p) ≥ k − 1), with
    /// n_s = min(W − 1, slices − 1 − s) later slices in its window.
    public static func expectedWindows(pairs: Double, slices: Int, codesPerSliceShares: [Double], codeMatch c: Double,
                                       window: Int, kMax: Int) -> [Double] {
        var p = 0.0
        for (k, share) in codesPerSliceShares.enumerated() { p += share * -expm1(Double(k) * log1p(-c)) }
        return (1...kMax).map { k in
            var perPair = 0.0
            for s in 0..<slices {
                let n = min(window - 1, slices - 1 - s)
                perPair += p * binomialTail(n: n, p: p, atLeast: k - 1)
            }
            return pairs * perPair
        }
    }

    /// P(Bin(n, p) ≥ m), summed exactly (n ≤ window).
    package static func binomialTail(n: Int, p: Double, atLeast m: Int) -> Double {
        if m <= 0 { return 1 }
        if m > n { return 0 }
        var total = 0.0
        for i in m...n {
            total += binomial(n, i) * pow(p, Double(i)) * pow(1 - p, Double(n - i))
        }
        return total
    }

    package static func binomial(_ n: Int, _ k: Int) -> Double {
        var r = 1.0
        for i in 0..<k { r = r * Double(n - i) / Double(i + 1) }
        return r
    }

    // MARK: Counting

    package struct Match: Comparable {
        package var receiver: Int32
        package var disclosure: Int32
        package var slice: Int32
        package var uuidAgrees: Bool

        package static func < (a: Match, b: Match) -> Bool {
            (a.receiver, a.disclosure, a.slice, a.uuidAgrees ? 1 : 0) < (b.receiver, b.disclosure, b.slice, b.uuidAgrees ? 1 : 0)
        }
    }

    package static func count(_ all: [Match], uuidRequired: Bool, kMax: Int, window: Int, threshold: Int) -> P6CollisionCounts {
        let sorted = all.filter { !uuidRequired || $0.uuidAgrees }.sorted()
        var windows = [Int64](repeating: 0, count: kMax)
        var full: Int64 = 0
        var receiversHit = Set<Int32>()
        var i = 0
        var slicesOfPair: [Int] = []
        while i < sorted.count {
            let r = sorted[i].receiver, e = sorted[i].disclosure
            slicesOfPair.removeAll(keepingCapacity: true)
            while i < sorted.count && sorted[i].receiver == r && sorted[i].disclosure == e {
                // Several received codes can hit the same slice: it counts once.
                if slicesOfPair.last != Int(sorted[i].slice) { slicesOfPair.append(Int(sorted[i].slice)) }
                i += 1
            }
            var j = 0
            for a in slicesOfPair.indices {
                if j < a { j = a }
                while j < slicesOfPair.count && slicesOfPair[j] <= slicesOfPair[a] + window - 1 { j += 1 }
                for k in 1...min(kMax, j - a) { windows[k - 1] += 1 }
            }
            let clusters = P6Matcher.clusters(slices: slicesOfPair, window: window, threshold: threshold)
            if !clusters.isEmpty {
                full += Int64(clusters.count)
                receiversHit.insert(r)
            }
        }
        return P6CollisionCounts(windows: windows, fullMatches: full, receiversWithFullMatch: receiversHit.count)
    }

    // MARK: Hash index

    /// Slots: code (32 bits) | UUID (3 bits) | disclosure + 1 (29 bits); 0 is empty.
    @inline(__always) package static func entry(code: UInt32, uuid: Int, disclosure: Int) -> UInt64 {
        UInt64(code) << 32 | UInt64(uuid) << 29 | UInt64(disclosure + 1)
    }

    package static func tableSize(entries: Int) -> Int {
        var size = 16
        while size * 3 < entries * 4 { size <<= 1 }  // load ≤ 0.75
        return size
    }

    @inline(__always) package static func slot(_ code: UInt32, _ size: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(code) &* 0x9E37_79B9_7F4A_7C15) >> 32) & (size - 1)
    }

    @inline(__always) package static func insert(_ value: UInt64, into t: UnsafeMutableBufferPointer<UInt64>) {
        var i = slot(UInt32(value >> 32), t.count)
        while t[i] != 0 { i = (i + 1) & (t.count - 1) }
        t[i] = value
    }

    @inline(__always) package static func probe(code: UInt32, uuid: Int, in t: UnsafeBufferPointer<UInt64>, _ hit: (Int, Bool) -> Void) {
        var i = slot(code, t.count)
        while t[i] != 0 {
            let v = t[i]
            if UInt32(v >> 32) == code {
                hit(Int(v & 0x1FFF_FFFF) - 1, Int((v >> 29) & 7) == uuid)
            }
            i = (i + 1) & (t.count - 1)
        }
    }

    private static func pow2(_ x: Double) -> Double { pow(2, x) }
}

/// Read-only view shared by shards.
private struct SourceBox<Element>: @unchecked Sendable {
    package let base: UnsafeBufferPointer<Element>
}
