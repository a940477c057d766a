/// Rx co-location matching: the disclosed Rx trace (codes the disclosing phone heard while it
/// could not transmit) against the local Rx trace. Two phones that heard the same slice code on
/// the same UUID in the same slice were near the same transmitter at the same time.
extension P6Matcher {
    /// Slices are `floor(time / sliceDuration)` on the UTC grid every P6 device shares. A slice
    /// matches when some (UUID, code) appears in both traces; full matches need `threshold`
    /// matched slices within `window` consecutive slices, as for Tx matching. Records at or
    /// after `notAfter` (the disclosure time) are ignored: later data cannot be trusted.
    public static func matchRx(disclosed: [P6RxRecord], local: [P6RxRecord], sliceDuration: Int = P6Epoch.defaultSliceDuration,
                               notAfter: Int64 = .max, window: Int = defaultWindow,
                               threshold: Int = defaultThreshold) -> (matchedSlices: [Int64], fullMatches: [ClosedRange<Int64>]) {
        precondition(sliceDuration >= 1)
        let d = Int64(sliceDuration)
        func slot(_ r: P6RxRecord) -> Int64 { r.time >= 0 ? r.time / d : (r.time - d + 1) / d }
        var heard = Set<SlotKey>()
        heard.reserveCapacity(disclosed.count)
        for r in disclosed where r.time < notAfter { heard.insert(SlotKey(slice: slot(r), uuid: r.uuidIndex, code: r.code)) }
        var matched = Set<Int64>()
        for r in local where r.time < notAfter && heard.contains(SlotKey(slice: slot(r), uuid: r.uuidIndex, code: r.code)) {
            matched.insert(slot(r))
        }
        let slices = matched.sorted()
        // Relative indices keep the window arithmetic in Int.
        let base = slices.first ?? 0
        let ranges = clusters(slices: slices.map { Int($0 - base) }, window: window, threshold: threshold)
        return (slices, ranges.map { slices[$0.lowerBound]...slices[$0.upperBound - 1] })
    }

    private struct SlotKey: Hashable {
        var slice: Int64
        var uuid: Int
        var code: UInt32
    }
}
