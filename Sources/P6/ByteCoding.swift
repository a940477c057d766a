/// Little-endian helpers for the P6 binary records.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }
}

struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    /// Caller guarantees enough bytes remain.
    mutating func read<T: FixedWidthInteger>(_: T.Type) -> T {
        var value: T = 0
        for i in 0..<MemoryLayout<T>.size {
            value |= T(truncatingIfNeeded: bytes[offset + i]) << (8 * i)
        }
        offset += MemoryLayout<T>.size
        return value
    }

    mutating func read(count: Int) -> [UInt8] {
        let out = Array(bytes[offset..<(offset + count)])
        offset += count
        return out
    }
}
