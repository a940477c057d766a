/// Tx trace record of one epoch: exactly 78 bytes, little endian.
///
/// | offset | size | field                                   |
/// |-------:|-----:|-----------------------------------------|
/// |      0 |    8 | start, Int64 Unix seconds UTC           |
/// |      8 |    4 | duration seconds, UInt32                |
/// |     12 |    2 | slice duration seconds, UInt16          |
/// |     14 |   32 | IEC                                     |
/// |     46 |   32 | EPK                                     |
///
/// Replaying `P6Epoch(txTrace:)` reproduces every code the epoch could have sent.
extension P6Epoch {
    public static let txTraceByteCount = 8 + 4 + 2 + 32 + 32  // 78

    public func encodedTxTrace() -> [UInt8] {
        var w = ByteWriter(capacity: Self.txTraceByteCount)
        appendTxTrace(to: &w)
        return w.bytes
    }

    func appendTxTrace(to w: inout ByteWriter) {
        w.append(start)
        w.append(UInt32(duration))
        w.append(UInt16(sliceDuration))
        w.append(iec)
        w.append(epk)
    }

    /// Decodes a 78-byte Tx trace; other lengths throw `.invalidLength`.
    public init(txTrace bytes: [UInt8]) throws(P6Error) {
        guard bytes.count == Self.txTraceByteCount else {
            throw .invalidLength(record: "Tx trace", expected: Self.txTraceByteCount, actual: bytes.count)
        }
        var r = ByteReader(bytes)
        try self.init(reading: &r)
    }

    init(reading r: inout ByteReader) throws(P6Error) {
        let start = r.read(Int64.self)
        let duration = Int(r.read(UInt32.self))
        let slice = Int(r.read(UInt16.self))
        let iec = r.read(count: Self.secretByteCount)
        let epk = r.read(count: Self.secretByteCount)
        try self.init(start: start, duration: duration, sliceDuration: slice, iec: iec, epk: epk)
    }
}
