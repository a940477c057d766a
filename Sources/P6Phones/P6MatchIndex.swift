import EventEngine
import P6

/// One full match found on a phone.
package struct P6FullMatch: Sendable, Hashable {
    package var phone: Int32
    /// Index into the run's disclosures.
    package var disclosure: Int32
    /// Tx matching (the phone heard the discloser) or Rx co-location matching.
    package var byTx: Bool
    /// Start of the first matched slice (UTC day of the match = start / 86,400).
    package var start: SimTime
    package var slices: Int32
}

/// What one phone found in the disclosure files it fetched.
package struct P6PhoneMatches: Sendable {
    package var txSingles = 0
    package var rxSingles = 0
    package var full: [P6FullMatch] = []
    /// With `keepsRxHits`: every reception that hit a disclosure the phone fully matched by Rx.
    package var rxHits: [(disclosure: Int32, key: P6MatchIndex.RxKey)] = []
}

/// The disclosed codes of the files fetched in one day, indexed once so that every phone's Rx
/// trace is probed record by record (cost: disclosed slices + received records, never their
/// product). Tx part: every slice the disclosed epochs sent, keyed by (UTC day, slice of the
/// day, UUID, code): epochs start on the day's slice grid, so this is where `P6Matcher.match`
/// places a reception in the epoch's grid. Rx part: the disclosed receptions keyed by (UTC
/// slice, UUID, code) as `P6Matcher.matchRx` does.
package struct P6MatchIndex: Sendable {
    package struct TxKey: Hashable, Sendable { var day: Int64; var slice: Int32; var uuid: UInt8; var code: UInt32 }
    package struct RxKey: Hashable, Sendable { var slot: Int64; var uuid: UInt8; var code: UInt32 }

    package let sliceSeconds: Int64
    package let window: Int
    package let threshold: Int
    /// Disclosed epochs: (disclosure index, epoch).
    package private(set) var epochs: [(disclosure: Int32, epoch: P6Epoch)] = []
    private var tx: [TxKey: Int32] = [:]
    private var txNext: [Int32] = []
    private var txEpoch: [Int32] = []
    private var rx: [RxKey: Int32] = [:]
    private var rxNext: [Int32] = []
    private var rxDisclosure: [Int32] = []
    /// Per disclosure index: discloser phone and time (nil for disclosures not in this batch).
    private var discloser: [Int32: (phone: Int32, at: SimTime)] = [:]
    /// UTC day numbers that can hold a matching reception.
    package private(set) var days = Set<Int64>()

    package init(disclosures: [(index: Int32, published: P6PublishedDisclosure)], parameters: P6RunParameters) {
        sliceSeconds = Int64(parameters.sliceSeconds)
        window = parameters.matchWindow
        threshold = parameters.matchThreshold
        for (index, d) in disclosures {
            discloser[index] = (d.phone, d.at)
            for epoch in d.disclosure.epochs {
                let id = Int32(epochs.count)
                epochs.append((index, epoch))
                let day = epoch.start / SimDuration.day
                let first = Int32((epoch.start - day * SimDuration.day) / sliceSeconds)
                days.formUnion([day - 1, day, day + 1])
                for s in epoch.allCodes() {
                    let key = TxKey(day: day, slice: first + Int32(s.sliceIndex), uuid: UInt8(s.uuidIndex), code: s.code)
                    txNext.append(tx[key] ?? -1)
                    txEpoch.append(id)
                    tx[key] = Int32(txEpoch.count - 1)
                }
            }
            for r in d.disclosure.rxTrace where r.time < d.at {
                let key = RxKey(slot: Self.floorDiv(r.time, sliceSeconds), uuid: UInt8(r.uuidIndex), code: r.code)
                rxNext.append(rx[key] ?? -1)
                rxDisclosure.append(index)
                rx[key] = Int32(rxDisclosure.count - 1)
                let day = r.time / SimDuration.day
                days.formUnion([day - 1, day, day + 1])
            }
        }
    }

    package static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }

    package var isEmpty: Bool { epochs.isEmpty && rxDisclosure.isEmpty }

    /// Matches one phone's Rx trace (records of any retained days, in any order) against the
    /// disclosures it fetched (`fetched`, indices into the run's disclosures).
    /// - Parameter keepsRxHits: also return the receptions behind Rx full matches (revocation's cleaning).
    package func match(phone: Int32, records: [P6RxRecord], fetched: Set<Int32>, keepsRxHits: Bool = false) -> P6PhoneMatches {
        var txHits: [UInt64] = [], rxHits: [UInt64] = []
        var rxKeys: [(disclosure: Int32, key: RxKey)] = []
        for r in records {
            let day = Self.floorDiv(r.time, SimDuration.day)
            let slice = (r.time - day * SimDuration.day) / sliceSeconds
            var e = tx[TxKey(day: day, slice: Int32(slice), uuid: UInt8(r.uuidIndex), code: r.code)] ?? -1
            while e >= 0 {
                let id = txEpoch[Int(e)]
                if fetched.contains(epochs[Int(id)].disclosure) && epochs[Int(id)].epoch.contains(r.time) { txHits.append(UInt64(id) << 32 | UInt64(slice)) }
                e = txNext[Int(e)]
            }
            let slot = Self.floorDiv(r.time, sliceSeconds)
            var k = rx[RxKey(slot: slot, uuid: UInt8(r.uuidIndex), code: r.code)] ?? -1
            while k >= 0 {
                let d = rxDisclosure[Int(k)]
                if fetched.contains(d), let who = discloser[d], who.phone != phone, r.time < who.at {
                    rxHits.append(UInt64(UInt32(d)) << 32 | UInt64(UInt32(truncatingIfNeeded: slot)))
                    if keepsRxHits { rxKeys.append((d, RxKey(slot: slot, uuid: UInt8(r.uuidIndex), code: r.code))) }
                }
                k = rxNext[Int(k)]
            }
        }
        var out = P6PhoneMatches()
        group(txHits) { id, slices in
            let epoch = epochs[Int(id)]
            let clusters = P6Matcher.clusters(slices: slices, window: window, threshold: threshold)
            out.txSingles += slices.count - clusters.reduce(0) { $0 + $1.count }
            for c in clusters {
                let midnight = epoch.epoch.start / SimDuration.day * SimDuration.day
                out.full.append(P6FullMatch(phone: phone, disclosure: epoch.disclosure, byTx: true,
                                            start: midnight + Int64(slices[c.lowerBound]) * sliceSeconds, slices: Int32(c.count)))
            }
        }
        var rxMatched = Set<Int32>()
        group(rxHits) { d, slots in
            let clusters = P6Matcher.clusters(slices: slots, window: window, threshold: threshold)
            out.rxSingles += slots.count - clusters.reduce(0) { $0 + $1.count }
            for c in clusters {
                out.full.append(P6FullMatch(phone: phone, disclosure: Int32(bitPattern: d), byTx: false,
                                            start: Int64(slots[c.lowerBound]) * sliceSeconds, slices: Int32(c.count)))
            }
            if !clusters.isEmpty { rxMatched.insert(Int32(bitPattern: d)) }
        }
        if keepsRxHits { out.rxHits = rxKeys.filter { rxMatched.contains($0.disclosure) } }
        return out
    }

    /// Whether receptions in these slots (any order, repeats allowed) still hold a full match.
    package func fullMatch(slots: [Int64]) -> Bool {
        let distinct = Array(Set(slots)).sorted().map { Int(UInt32(truncatingIfNeeded: $0)) }
        return !P6Matcher.clusters(slices: distinct, window: window, threshold: threshold).isEmpty
    }

    /// The (slot, UUID, code) of every slice a disclosure's epochs sent, as `RxKey`s.
    package static func txCodes(of d: P6PublishedDisclosure, sliceSeconds: Int64) -> [RxKey] {
        d.disclosure.epochs.flatMap { epoch in
            epoch.allCodes().map { s in
                RxKey(slot: floorDiv(s.start, sliceSeconds), uuid: UInt8(s.uuidIndex), code: s.code)
            }
        }
    }

    /// Calls `body` per high word with the distinct low words (ascending); hits are hi << 32 | lo.
    private func group(_ hits: [UInt64], _ body: (UInt32, [Int]) -> Void) {
        guard !hits.isEmpty else { return }
        let sorted = hits.sorted()
        var i = 0
        while i < sorted.count {
            let hi = UInt32(sorted[i] >> 32)
            var lows: [Int] = []
            while i < sorted.count && UInt32(sorted[i] >> 32) == hi {
                let lo = Int(UInt32(truncatingIfNeeded: sorted[i]))
                if lows.last != lo { lows.append(lo) }
                i += 1
            }
            body(hi, lows)
        }
    }
}
