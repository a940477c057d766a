/// An epoch's Tx trace as disclosed: start (8 bytes), duration (4), slice duration (2),
/// IEC (32), EPK (32), little endian: 78 bytes. Anyone holding it replays every code the
/// device could have sent in that epoch.
public enum TxTrace {
    public static let byteCount = 8 + 4 + 2 + 32 + 32

    public static func encode(_ epoch: Epoch) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(byteCount)
        withUnsafeBytes(of: epoch.start.littleEndian) { out += $0 }
        withUnsafeBytes(of: epoch.duration.littleEndian) { out += $0 }
        withUnsafeBytes(of: epoch.sliceDuration.littleEndian) { out += $0 }
        out += epoch.initialEpochCode
        out += epoch.progressionKey
        return out
    }

    public static func decode(_ bytes: some Collection<UInt8>) throws(P6Error) -> Epoch {
        let b = Array(bytes)
        guard b.count == byteCount else { throw .invalidLength(field: "Tx trace", expected: byteCount, actual: b.count) }
        func integer<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            b[offset..<(offset + MemoryLayout<T>.size)].reversed().reduce(T(0)) { $0 << 8 | T($1) }
        }
        return try Epoch(start: integer(0, Int64.self), duration: integer(8, UInt32.self), sliceDuration: integer(12, UInt16.self),
                         initialEpochCode: Array(b[14..<46]), progressionKey: Array(b[46..<78]))
    }
}

/// A disclosure: a unique 16-byte ID and the Tx traces of the disclosed epochs
/// (16 + 2 + 78·N bytes; 798 bytes for 10 epochs, the seed's "about 800").
public struct Disclosure: Sendable, Equatable {
    public let id: [UInt8]
    public let epochs: [Epoch]

    public init(id: [UInt8], epochs: [Epoch]) throws(P6Error) {
        guard id.count == 16 else { throw .invalidLength(field: "disclosure ID", expected: 16, actual: id.count) }
        self.id = id
        self.epochs = epochs
    }

    public func encode() -> [UInt8] {
        id + [UInt8(epochs.count & 0xff), UInt8(epochs.count >> 8)] + epochs.flatMap(TxTrace.encode)
    }

    public static func decode(_ bytes: [UInt8]) throws(P6Error) -> Disclosure {
        guard bytes.count >= 18 else { throw .invalidLength(field: "disclosure header", expected: 18, actual: bytes.count) }
        let count = Int(bytes[16]) | Int(bytes[17]) << 8
        let expected = 18 + count * TxTrace.byteCount
        guard bytes.count == expected else { throw .invalidLength(field: "disclosure", expected: expected, actual: bytes.count) }
        var epochs: [Epoch] = []
        for i in 0..<count {
            let offset = 18 + i * TxTrace.byteCount
            epochs.append(try TxTrace.decode(bytes[offset..<(offset + TxTrace.byteCount)]))
        }
        return try Disclosure(id: Array(bytes[0..<16]), epochs: epochs)
    }
}
