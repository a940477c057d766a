/// A slice code a receiver heard: the slice's start time, the UUID it came on and the code.
/// Repeated codes within one slice are kept once.
public struct ReceivedCode: Sendable, Equatable, Hashable {
    public let sliceStart: Int64
    public let uuidIndex: Int
    public let code: UInt32

    public init(sliceStart: Int64, uuidIndex: Int, code: UInt32) {
        self.sliceStart = sliceStart
        self.uuidIndex = uuidIndex
        self.code = code
    }
}

/// Tx matching of one disclosed epoch against a receiver's Rx trace: slice codes that equal
/// what the discloser sent in the same slice, and "full" matches, i.e. at least `threshold`
/// matching slices within a sliding window of `window` consecutive slices (seed: 3 of 5).
public struct TxMatch: Sendable, Equatable {
    /// Slice indices (within the epoch) whose received code matched, ascending, distinct.
    public let matchedSlices: [Int]
    /// Merged runs of qualifying windows: (first slice, last slice) of each match event.
    public let events: [ClosedRange<Int>]

    public var singleMatches: Int { matchedSlices.count }
    public var fullMatches: Int { events.count }

    public init(epoch: Epoch, received: [ReceivedCode], window: Int = 5, threshold: Int = 3) {
        precondition(window >= 1 && threshold >= 1 && threshold <= window, "need 1 <= threshold <= window")
        var matched = Set<Int>()
        for r in Set(received) {
            guard let sent = epoch.transmission(at: r.sliceStart), sent.start == r.sliceStart else { continue }
            if sent.uuidIndex == r.uuidIndex && sent.code == r.code { matched.insert(sent.sliceIndex) }
        }
        let slices = matched.sorted()
        matchedSlices = slices
        var events: [ClosedRange<Int>] = []
        // A window [s, s + window) qualifies when it holds `threshold` matched slices; the
        // qualifying windows are found from each run of `threshold` consecutive matches.
        if slices.count >= threshold {
            for i in 0...(slices.count - threshold) where slices[i + threshold - 1] - slices[i] < window {
                let range = slices[i]...slices[i + threshold - 1]
                if let last = events.last, last.upperBound >= range.lowerBound - (window - 1) {
                    events[events.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
                } else {
                    events.append(range)
                }
            }
        }
        self.events = events
    }
}
