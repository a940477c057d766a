/// How a disclosure's Rx trace is laid out, and the seed's two ways to keep it small ("a
/// compression scheme may be used to minimize the size when no data is being received;
/// moreover, some sub-sampling might be employed during especially busy periods").
public enum P6RxTraceEncoding: String, Sendable, CaseIterable {
    /// 9 bytes a record: time UInt32 Unix seconds, UUID index UInt8, code UInt32.
    case raw
    /// Records in time order; each is one varint of (seconds since the previous record << 3 |
    /// UUID index) and its 4-byte code. Quiet periods cost nothing and a busy slice's records
    /// share their time in one or two bytes: 5–6 bytes a record instead of 9.
    case compact
}

public enum P6RxTraceCodec {
    /// The compact form of `records` (sorted here): first record's time as UInt32, then per
    /// record varint(Δt << 3 | uuid) + code (little endian).
    public static func compact(_ records: [P6RxRecord]) -> [UInt8] {
        let sorted = records.sorted()
        var out: [UInt8] = []
        out.reserveCapacity(4 + 6 * sorted.count)
        var previous = sorted.first?.time ?? 0
        appendUInt32(UInt32(truncatingIfNeeded: previous), to: &out)
        for r in sorted {
            var v = UInt64(r.time - previous) << 3 | UInt64(r.uuidIndex)
            while v >= 0x80 {
                out.append(UInt8(v & 0x7f) | 0x80)
                v >>= 7
            }
            out.append(UInt8(v))
            appendUInt32(r.code, to: &out)
            previous = r.time
        }
        return out
    }

    /// Reads `count` records of the compact form; throws if the bytes do not hold exactly them.
    public static func expand(_ bytes: ArraySlice<UInt8>, count: Int) throws(P6Error) -> [P6RxRecord] {
        var i = bytes.startIndex
        func need(_ n: Int) throws(P6Error) {
            guard bytes.endIndex - i >= n else { throw .unencodable("compact Rx trace ends early") }
        }
        func readUInt32() throws(P6Error) -> UInt32 {
            try need(4)
            defer { i += 4 }
            return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[i + $1]) << (8 * $1) }
        }
        var time = Int64(try readUInt32())
        var records: [P6RxRecord] = []
        records.reserveCapacity(count)
        for _ in 0..<count {
            var v: UInt64 = 0, shift: UInt64 = 0
            while true {
                try need(1)
                let b = bytes[i]
                i += 1
                guard shift < 64 else { throw .unencodable("compact Rx trace has an overlong varint") }
                v |= UInt64(b & 0x7f) << shift
                if b < 0x80 { break }
                shift += 7
            }
            time += Int64(v >> 3)
            records.append(P6RxRecord(time: time, uuidIndex: Int(v & 7), code: try readUInt32()))
        }
        guard i == bytes.endIndex else { throw .unencodable("compact Rx trace has \(bytes.endIndex - i) bytes after its records") }
        return records
    }

    /// At most `perSlice` records in any slice of `sliceSeconds` (0: all): in a busy slice the
    /// records kept are those with the lowest codes, which, codes being random, is a uniform
    /// sample that every phone would draw alike.
    public static func subsample(_ records: [P6RxRecord], perSlice: Int, sliceSeconds: Int) -> [P6RxRecord] {
        guard perSlice > 0 else { return records }
        let d = Int64(sliceSeconds)
        func slot(_ r: P6RxRecord) -> Int64 { r.time >= 0 ? r.time / d : (r.time - d + 1) / d }
        var bySlot: [Int64: [P6RxRecord]] = [:]
        for r in records { bySlot[slot(r), default: []].append(r) }
        return bySlot.keys.sorted().flatMap { key -> [P6RxRecord] in
            let slice = bySlot[key]!
            return slice.count <= perSlice ? slice : Array(slice.sorted { ($0.code, $0.uuidIndex, $0.time) < ($1.code, $1.uuidIndex, $1.time) }.prefix(perSlice))
        }.sorted()
    }

    private static func appendUInt32(_ v: UInt32, to out: inout [UInt8]) {
        for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * k))) }
    }
}
