/// A slice of a disclosed epoch whose expected code was found in the Rx trace.
public struct P6SliceMatch: Hashable, Sendable {
    public let sliceIndex: Int
    public let sliceStart: Int64
    public let uuidIndex: Int
    public let code: UInt32
}

/// A cluster of matched slices: every slice in it lies in some window of `window`
/// consecutive slices holding at least `threshold` matched slices; overlapping
/// qualifying windows are merged. `firstSlice`/`lastSlice` are matched slices.
public struct P6ProximityMatch: Hashable, Sendable {
    public let firstSlice: Int
    public let lastSlice: Int
    /// Start of the first matched slice, Unix seconds.
    public let start: Int64
    /// End of the last matched slice (exclusive), Unix seconds.
    public let end: Int64
    /// Matched slices in the cluster.
    public let slices: [P6SliceMatch]
}

public struct P6MatchResult: Hashable, Sendable {
    /// Number of distinct slices of the epoch whose code was received.
    public let matchedSliceCount: Int
    /// Full matches (≥ threshold matched slices within `window` consecutive slices).
    public let matches: [P6ProximityMatch]
    /// Matched slices that are not part of any full match (chance coincidences or
    /// too-sparse receptions).
    public let singles: [P6SliceMatch]
}

public enum P6Matcher {
    public static let defaultWindow = 5
    public static let defaultThreshold = 3

    /// Tx matching of one disclosed epoch against a receiver's Rx trace.
    ///
    /// Each Rx record's time is placed in the disclosed epoch's slice grid
    /// (`floor((time − start) / sliceDuration)`); records outside the epoch are ignored.
    /// A slice matches when a record in it has the UUID index and code the epoch sent in
    /// that slice. Duplicates (same slice, UUID, code) count once; a slice counts once.
    /// Cost: one HMAC per frame of the epoch that has a reception, plus sorting.
    public static func match(epoch: P6Epoch, rxTrace: [P6RxRecord],
                             window: Int = defaultWindow, threshold: Int = defaultThreshold) -> P6MatchResult {
        precondition(window >= 1 && threshold >= 1)
        var cursor = P6TxCursor(epoch: epoch)
        var matched: [P6SliceMatch] = []
        var lastMatchedSlice = -1
        for rx in rxTrace.sorted() {
            guard let s = epoch.sliceIndex(at: rx.time), s != lastMatchedSlice else { continue }
            let tx = cursor.slice(s)
            if tx.uuidIndex == rx.uuidIndex && tx.code == rx.code {
                matched.append(P6SliceMatch(sliceIndex: s, sliceStart: tx.start, uuidIndex: tx.uuidIndex, code: tx.code))
                lastMatchedSlice = s
            }
        }
        return cluster(matched, epoch: epoch, window: window, threshold: threshold)
    }

    /// Full-match clusters among matched slice indices (ascending, distinct): index ranges
    /// into `slices`, each a maximal union of overlapping windows of `window` consecutive
    /// slices holding at least `threshold` matched slices. Shared by Tx, Rx and collision matching.
    public static func clusters(slices: [Int], window: Int = defaultWindow, threshold: Int = defaultThreshold) -> [Range<Int>] {
        precondition(window >= 1 && threshold >= 1)
        var clusters: [Range<Int>] = []
        var j = 0
        for i in slices.indices {
            // Any qualifying window can be shifted to start at its first matched slice.
            if j < i { j = i }
            while j < slices.count && slices[j] <= slices[i] + window - 1 { j += 1 }
            guard j - i >= threshold else { continue }
            if let last = clusters.last, last.upperBound > i {
                clusters[clusters.count - 1] = last.lowerBound..<max(last.upperBound, j)
            } else {
                clusters.append(i..<j)
            }
        }
        return clusters
    }

    /// Groups matched slices (sorted, distinct slice indices) into full matches and singles.
    static func cluster(_ m: [P6SliceMatch], epoch: P6Epoch, window: Int, threshold: Int) -> P6MatchResult {
        let clusters = clusters(slices: m.map(\.sliceIndex), window: window, threshold: threshold)
        var inCluster = [Bool](repeating: false, count: m.count)
        let matches = clusters.map { r -> P6ProximityMatch in
            for k in r { inCluster[k] = true }
            let first = m[r.lowerBound], last = m[r.upperBound - 1]
            let end = min(epoch.sliceStart(last.sliceIndex + 1), epoch.end)
            return P6ProximityMatch(firstSlice: first.sliceIndex, lastSlice: last.sliceIndex,
                                    start: first.sliceStart, end: end, slices: Array(m[r]))
        }
        let singles = m.indices.filter { !inCluster[$0] }.map { m[$0] }
        return P6MatchResult(matchedSliceCount: m.count, matches: matches, singles: singles)
    }
}
