import EventEngine
import P6

/// One received slice code packed in 8 bytes: time since the day's midnight (biased so clock
/// offsets before midnight stay positive) in the top 29 bits, UUID index in 3, code in 32.
/// Sorting packed values sorts by time, UUID, code.
package enum P6PackedRx {
    package static let bias: Int64 = 1 << 16

    @inline(__always)
    package static func pack(_ r: P6RxRecord, midnight: SimTime) -> UInt64 {
        UInt64(r.time - midnight + bias) << 35 | UInt64(r.uuidIndex) << 32 | UInt64(r.code)
    }

    @inline(__always)
    package static func unpack(_ v: UInt64, midnight: SimTime) -> P6RxRecord {
        P6RxRecord(time: midnight + Int64(v >> 35) - bias, uuidIndex: Int(v >> 32 & 7), code: UInt32(truncatingIfNeeded: v))
    }
}

/// Receptions being collected by one contact-phase shard, in production order. The sender
/// is kept until the day's disclosures are known (`restartingEpochs`), then dropped.
package struct P6RxBatch: Sendable {
    package var receivers: [Int32] = []
    package var senders: [Int32] = []
    package var records: [UInt64] = []
    /// Received in a household contact, at home (kept only when a run withholds them: `p6.rx_trace.withhold_at_home`).
    package var atHome: [Bool] = []

    package mutating func append(_ other: P6RxBatch) {
        receivers += other.receivers
        senders += other.senders
        records += other.records
        atHome += other.atHome
    }
}

/// One day of every phone's Rx trace in compressed rows: phone p's records are
/// `records[rowStart[p] ..< rowStart[p + 1]]`, ascending, duplicates removed.
package struct P6RxDay: Sendable {
    package let dayIndex: Int
    package let midnight: SimTime
    package let rowStart: [UInt32]
    package let records: [UInt64]
    /// Per record, received at home (empty unless the batch marked them).
    package let atHome: [Bool]

    /// Groups a merged batch by receiver (stable counting sort), so the layout depends only
    /// on the batch's order, which the shards keep independent of the thread count.
    package init(dayIndex: Int, midnight: SimTime, phones: Int, batch: P6RxBatch) {
        self.dayIndex = dayIndex
        self.midnight = midnight
        var start = [UInt32](repeating: 0, count: phones + 1)
        for r in batch.receivers { start[Int(r) + 1] += 1 }
        for p in 0..<phones { start[p + 1] += start[p] }
        var fill = start
        var sorted = [UInt64](repeating: 0, count: batch.records.count)
        let marked = !batch.atHome.isEmpty
        // The home flag rides in a set of (receiver, record) pairs heard at home, so rows sort as before.
        struct Heard: Hashable { var receiver: Int32; var record: UInt64 }
        var home = Set<Heard>()
        for (i, r) in batch.receivers.enumerated() {
            sorted[Int(fill[Int(r)])] = batch.records[i]
            fill[Int(r)] += 1
        }
        if marked {
            for i in batch.records.indices where batch.atHome[i] { home.insert(Heard(receiver: batch.receivers[i], record: batch.records[i])) }
        }
        var rows = [UInt32](repeating: 0, count: phones + 1)
        var out: [UInt64] = []
        var outHome: [Bool] = []
        out.reserveCapacity(sorted.count)
        for p in 0..<phones {
            let row = sorted[Int(start[p])..<Int(start[p + 1])].sorted()
            for (k, v) in row.enumerated() where k == 0 || row[k - 1] != v {
                out.append(v)
                if marked { outHome.append(home.contains(Heard(receiver: Int32(p), record: v))) }
            }
            rows[p + 1] = UInt32(out.count)
        }
        rowStart = rows
        records = out
        atHome = outHome
    }

    package func row(_ phone: Int) -> ArraySlice<UInt64> { records[Int(rowStart[phone])..<Int(rowStart[phone + 1])] }

    package func trace(_ phone: Int) -> [P6RxRecord] { row(phone).map { P6PackedRx.unpack($0, midnight: midnight) } }

    /// Whether each of `phone`'s records (in `trace` order) was received at home; all false if unmarked.
    package func receivedAtHome(_ phone: Int) -> [Bool] {
        let range = Int(rowStart[phone])..<Int(rowStart[phone + 1])
        return atHome.isEmpty ? Array(repeating: false, count: range.count) : Array(atHome[range])
    }

    package var bytes: Int { records.count * 8 + rowStart.count * 4 + atHome.count }
}

/// Every phone's Rx traces of the last `retentionDays` days.
package struct P6RxStore: Sendable {
    package let retentionDays: Int
    package private(set) var days: [P6RxDay] = []

    package init(retentionDays: Int) { self.retentionDays = retentionDays }

    package mutating func add(_ day: P6RxDay) {
        days.append(day)
        while let first = days.first, first.dayIndex <= day.dayIndex - retentionDays { days.removeFirst() }
    }

    package func day(_ dayIndex: Int) -> P6RxDay? { days.first { $0.dayIndex == dayIndex } }

    package var bytes: Int { days.reduce(0) { $0 + $1.bytes } }
}
