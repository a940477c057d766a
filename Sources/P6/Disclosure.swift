/// One received slice code in an Rx trace.
public struct P6RxRecord: Hashable, Sendable, Comparable {
    /// Time of the receiving slice (slice start), Unix seconds UTC.
    public let time: Int64
    /// Proximity UUID number 0...7 the code arrived on.
    public let uuidIndex: Int
    /// 32-bit slice code (major << 16 | minor).
    public let code: UInt32

    public init(time: Int64, uuidIndex: Int, code: UInt32) {
        self.time = time
        self.uuidIndex = uuidIndex
        self.code = code
    }

    public init(time: Int64, uuidIndex: Int, major: UInt16, minor: UInt16) {
        self.init(time: time, uuidIndex: uuidIndex, code: UInt32(major) << 16 | UInt32(minor))
    }

    public static func < (a: P6RxRecord, b: P6RxRecord) -> Bool {
        (a.time, a.uuidIndex, a.code) < (b.time, b.uuidIndex, b.code)
    }

    /// 4 (UInt32 Unix seconds) + 1 (UUID index) + 4 (code) bytes, little endian.
    public static let encodedByteCount = 9
}

/// A disclosure: a unique 16-byte ID, the Tx traces of N epochs, and the Rx trace
/// recorded while not transmitting.
///
/// Binary layout (little endian):
/// - 16 bytes disclosure ID
/// - 2 bytes epoch count N (UInt16)
/// - N × 78 bytes Tx traces (`P6Epoch.encodedTxTrace()`)
/// - 4 bytes Rx record count M (UInt32)
/// - M × 9 bytes Rx records: time UInt32 Unix seconds, UUID index UInt8, code UInt32
///
/// Total = 22 + 78·N + 9·M bytes; 10 epochs without Rx = 802 bytes.
public struct P6Disclosure: Hashable, Sendable {
    public static let idByteCount = 16
    public static let headerByteCount = 16 + 2
    public static let rxCountByteCount = 4

    public let id: [UInt8]
    public let epochs: [P6Epoch]
    public let rxTrace: [P6RxRecord]

    public init(id: [UInt8], epochs: [P6Epoch], rxTrace: [P6RxRecord] = []) throws(P6Error) {
        guard id.count == Self.idByteCount else {
            throw .invalidKeyLength(field: "disclosure ID", expected: Self.idByteCount, actual: id.count)
        }
        guard epochs.count <= Int(UInt16.max) else { throw .unencodable("more than 65535 epochs") }
        guard rxTrace.count <= Int(UInt32.max) else { throw .unencodable("too many Rx records") }
        for rx in rxTrace {
            guard (0..<P6FrameCode.partCount).contains(rx.uuidIndex) else { throw .invalidUUIDIndex(rx.uuidIndex) }
            guard rx.time >= 0, rx.time <= Int64(UInt32.max) else {
                throw .unencodable("Rx time \(rx.time) outside UInt32 Unix seconds")
            }
        }
        self.id = id
        self.epochs = epochs
        self.rxTrace = rxTrace
    }

    public static func encodedByteCount(epochs: Int, rxRecords: Int) -> Int {
        headerByteCount + P6Epoch.txTraceByteCount * epochs + rxCountByteCount + P6RxRecord.encodedByteCount * rxRecords
    }

    public var encodedByteCount: Int { Self.encodedByteCount(epochs: epochs.count, rxRecords: rxTrace.count) }

    public func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: encodedByteCount)
        w.append(id)
        w.append(UInt16(epochs.count))
        for e in epochs { e.appendTxTrace(to: &w) }
        w.append(UInt32(rxTrace.count))
        for rx in rxTrace {
            w.append(UInt32(rx.time))
            w.append(UInt8(rx.uuidIndex))
            w.append(rx.code)
        }
        return w.bytes
    }

    /// Bytes of the encoding with the Rx trace in `rx` form.
    public func encodedByteCount(rx: P6RxTraceEncoding) -> Int {
        switch rx {
        case .raw: encodedByteCount
        case .compact: Self.encodedByteCount(epochs: epochs.count, rxRecords: 0) + 4 + P6RxTraceCodec.compact(rxTrace).count
        }
    }

    /// The encoding with the Rx trace in `rx` form. Compact: the record count's top bit is set
    /// and a UInt32 byte length and `P6RxTraceCodec.compact` follow it.
    public func encoded(rx: P6RxTraceEncoding) throws(P6Error) -> [UInt8] {
        guard rx == .compact else { return encoded() }
        guard rxTrace.count < 1 << 31 else { throw .unencodable("too many Rx records for the compact form") }
        let payload = P6RxTraceCodec.compact(rxTrace)
        var w = ByteWriter(capacity: encodedByteCount(rx: .compact))
        w.append(id)
        w.append(UInt16(epochs.count))
        for e in epochs { e.appendTxTrace(to: &w) }
        w.append(UInt32(rxTrace.count) | 1 << 31)
        w.append(UInt32(payload.count))
        w.append(payload)
        return w.bytes
    }

    /// Decodes either form; the length must be exactly the one implied by the counts.
    public init(encoded bytes: [UInt8]) throws(P6Error) {
        let minimum = Self.encodedByteCount(epochs: 0, rxRecords: 0)
        guard bytes.count >= minimum else {
            throw .invalidLength(record: "disclosure", expected: minimum, actual: bytes.count)
        }
        var r = ByteReader(bytes)
        let id = r.read(count: Self.idByteCount)
        let n = Int(r.read(UInt16.self))
        let rxCountOffset = Self.headerByteCount + P6Epoch.txTraceByteCount * n
        guard bytes.count >= rxCountOffset + Self.rxCountByteCount else {
            throw .invalidLength(record: "disclosure", expected: Self.encodedByteCount(epochs: n, rxRecords: 0),
                                 actual: bytes.count)
        }
        var countReader = ByteReader(bytes, offset: rxCountOffset)
        let count = countReader.read(UInt32.self)
        if count & 1 << 31 != 0 {
            let m = Int(count & ~(1 << 31))
            guard bytes.count >= rxCountOffset + 8 else { throw .invalidLength(record: "disclosure", expected: rxCountOffset + 8, actual: bytes.count) }
            let length = Int(countReader.read(UInt32.self))
            guard bytes.count == rxCountOffset + 8 + length else {
                throw .invalidLength(record: "disclosure", expected: rxCountOffset + 8 + length, actual: bytes.count)
            }
            var epochs: [P6Epoch] = []
            for _ in 0..<n { epochs.append(try P6Epoch(reading: &r)) }
            try self.init(id: id, epochs: epochs, rxTrace: try P6RxTraceCodec.expand(bytes[(rxCountOffset + 8)...], count: m))
            return
        }
        let m = Int(count)
        let expected = Self.encodedByteCount(epochs: n, rxRecords: m)
        guard bytes.count == expected else {
            throw .invalidLength(record: "disclosure", expected: expected, actual: bytes.count)
        }
        var epochs: [P6Epoch] = []
        epochs.reserveCapacity(n)
        for _ in 0..<n { epochs.append(try P6Epoch(reading: &r)) }
        _ = r.read(UInt32.self)
        var rx: [P6RxRecord] = []
        rx.reserveCapacity(m)
        for _ in 0..<m {
            let t = Int64(r.read(UInt32.self))
            let u = Int(r.read(UInt8.self))
            let c = r.read(UInt32.self)
            rx.append(P6RxRecord(time: t, uuidIndex: u, code: c))
        }
        try self.init(id: id, epochs: epochs, rxTrace: rx)
    }
}
