import EventEngine
import P6

extension P6RxBatch {
    /// The day's receptions as the senders really sent them. The contact phase runs at midnight
    /// with every sender's day epoch (disclosure times are known only once the day has run), so
    /// for senders that disclosed that day the codes are re-derived from the epoch in use at the
    /// time (`P6PhoneModel.epochs`): after a disclosure, the new epoch's; between a disclosure and
    /// the new epoch's first slice the phone sent nothing, so those receptions are dropped.
    /// - Parameter epochsBySender: the day's epochs of each sender that disclosed that day.
    package mutating func restartingEpochs(_ epochsBySender: [Int32: [P6Epoch]], clockOffsets: [Double], midnight: SimTime) {
        guard !epochsBySender.isEmpty else { return }
        var heard: [Int32: [(time: SimTime, index: Int)]] = [:]
        for i in records.indices where epochsBySender[senders[i]] != nil {
            let local = P6PackedRx.unpack(records[i], midnight: midnight).time
            heard[senders[i], default: []].append((local - SimTime(clockOffsets[Int(receivers[i])].rounded()), i))
        }
        var dropped = Set<Int>()
        for (sender, receptions) in heard {
            let epochs = epochsBySender[sender]!
            var cursors = epochs.map { P6TxCursor(epoch: $0) }
            for (t, i) in receptions.sorted(by: { ($0.time, $0.index) < ($1.time, $1.index) }) {
                guard let k = epochs.firstIndex(where: { $0.contains(t) }) else { dropped.insert(i); continue }
                let tx = cursors[k].slice(epochs[k].sliceIndex(at: t)!)
                let local = P6PackedRx.unpack(records[i], midnight: midnight).time
                records[i] = P6PackedRx.pack(P6RxRecord(time: local, uuidIndex: tx.uuidIndex, code: tx.code), midnight: midnight)
            }
        }
        if !dropped.isEmpty {
            let kept = records.indices.filter { !dropped.contains($0) }
            receivers = kept.map { receivers[$0] }
            senders = kept.map { senders[$0] }
            records = kept.map { records[$0] }
            if !atHome.isEmpty { atHome = kept.map { atHome[$0] } }
        }
    }
}
