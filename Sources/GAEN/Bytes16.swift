/// Sixteen bytes as a compact value: keys, RPIs and AES blocks.
///
/// The two words hold the bytes in memory order (not as numbers), so a buffer of `Bytes16`
/// is exactly the byte string, and AES can write into it directly. Hashing and equality are
/// on two words; `<` is unsigned lexicographic byte order, the order export files sort keys by.
public struct Bytes16: Hashable, Comparable, Sendable {
    public var word0: UInt64
    public var word1: UInt64

    public static let zero = Bytes16(word0: 0, word1: 0)

    public init(word0: UInt64, word1: UInt64) {
        self.word0 = word0
        self.word1 = word1
    }

    /// Returns nil unless `bytes` has exactly 16 elements.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 16 else { return nil }
        var value = Bytes16.zero
        withUnsafeMutableBytes(of: &value) { raw in
            _ = raw.initializeMemory(as: UInt8.self, from: bytes)
        }
        self = value
    }

    /// Parses 32 hex digits (either case, no separators).
    public init?(hex: String) {
        guard let bytes = HexCoding.decode(hex), let value = Bytes16(bytes: bytes) else { return nil }
        self = value
    }

    public var bytes: [UInt8] {
        withUnsafeBytes(of: self) { Array($0) }
    }

    public var hex: String { HexCoding.encode(bytes) }

    public static func < (lhs: Bytes16, rhs: Bytes16) -> Bool {
        let l0 = UInt64(bigEndian: lhs.word0), r0 = UInt64(bigEndian: rhs.word0)
        if l0 != r0 { return l0 < r0 }
        return UInt64(bigEndian: lhs.word1) < UInt64(bigEndian: rhs.word1)
    }

    /// Uniformly random bytes from `generator` (the simulator passes its seeded generator).
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> Bytes16 {
        Bytes16(word0: generator.next(), word1: generator.next())
    }
}

extension Bytes16: CustomStringConvertible {
    public var description: String { hex }
}

/// Lower-case hex without separators.
public enum HexCoding {
    public static func encode<C: Sequence>(_ bytes: C) -> String where C.Element == UInt8 {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Nil on odd length or any non-hex character.
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
