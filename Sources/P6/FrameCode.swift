import Crypto

/// A 256-bit P6 frame code (FC). FC₀ = IEC; FCₖ₊₁ = HMAC-SHA256(key: EPK, message: FCₖ).
///
/// The frame code is split into 8 parts of 32 bits: part `i` is bytes `4i ..< 4i+4`
/// read big-endian. During a frame of 8 slices each part is sent exactly once,
/// as iBeacon major (high 16 bits) + minor (low 16 bits) on proximity UUID number `i`.
public struct P6FrameCode: Hashable, Sendable, CustomStringConvertible {
    public static let byteCount = 32
    public static let partCount = 8

    public let bytes: [UInt8]

    public init(bytes: [UInt8]) throws(P6Error) {
        guard bytes.count == Self.byteCount else {
            throw .invalidKeyLength(field: "frame code", expected: Self.byteCount, actual: bytes.count)
        }
        self.bytes = bytes
    }

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// The next frame code: HMAC-SHA256 keyed with the EPK over this code.
    public func next(epk: SymmetricKey) -> P6FrameCode {
        let mac = HMAC<SHA256>.authenticationCode(for: bytes, using: epk)
        return P6FrameCode(unchecked: Array(mac))
    }

    /// The same step from a keyed HMAC state prepared once per epoch (`HMAC(key: EPK)`): copying
    /// it skips hashing the key pads, about half the work of an HMAC on a 32-byte message.
    public func next(keyed: HMAC<SHA256>) -> P6FrameCode {
        var mac = keyed
        mac.update(data: bytes)
        return P6FrameCode(unchecked: Array(mac.finalize()))
    }

    /// 32-bit part `index` (0...7): bytes `4·index ..< 4·index+4`, big-endian.
    public func part(_ index: Int) -> UInt32 {
        precondition((0..<Self.partCount).contains(index), "part index out of range")
        let o = 4 * index
        return UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3])
    }

    /// Order in which the 8 parts are sent during this frame: `sliceOrder[p]` is the
    /// part (= proximity UUID index) transmitted in slice position `p` (0...7) of the frame.
    ///
    /// Exactly 21 bits of the frame code are used:
    /// - Let `v` = bytes 0, 1, 2 as a 24-bit big-endian integer. The 21 bits used are the
    ///   top 21 bits of `v` (bit 23 down to bit 3); the lowest 3 bits of byte 2 are unused.
    /// - Start with the remaining parts `[0, 1, ..., 7]` in ascending order.
    /// - For step `i` = 0...6 there are `r = 8 − i` parts left; take the 3-bit group
    ///   `b = (v >> (21 − 3i)) & 7` (step 0 uses bits 23–21, step 6 uses bits 5–3) and
    ///   remove and send the remaining part at index `b mod r`.
    /// - Step 7: the single part left is forced.
    ///
    /// The result is always a permutation of 0...7 and every permutation is reachable
    /// (3 bits always cover every residue since r ≤ 8). The `mod` introduces a bias
    /// when r is not a power of two: r = 7 → index 0 has probability 2/8; r = 6 →
    /// indices 0,1 get 2/8; r = 5 → indices 0,1,2 get 2/8; r = 3 → indices 0,1 get 3/8
    /// and index 2 gets 2/8 (r = 8, 4, 2 are unbiased). This follows the seed's
    /// "7 × 3 bits" description literally; the bias only affects UUID contention,
    /// not code secrecy. Note these 21 bits are also the top bits of part 0.
    public var sliceOrder: [Int] {
        Self.sliceOrder(selector: Int(bytes[0]) << 16 | Int(bytes[1]) << 8 | Int(bytes[2]))
    }

    /// Slice order from the 24-bit big-endian value `v` of bytes 0...2 (see `sliceOrder`);
    /// only bits 23...3 of `v` are used.
    public static func sliceOrder(selector v: Int) -> [Int] {
        var remaining = Array(0..<partCount)
        var order: [Int] = []
        order.reserveCapacity(partCount)
        for i in 0..<(partCount - 1) {
            let b = (v >> (21 - 3 * i)) & 7
            order.append(remaining.remove(at: b % remaining.count))
        }
        order.append(remaining[0])
        return order
    }

    public var description: String { bytes.map { String(format2($0)) }.joined() }
}

private func format2(_ b: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
}
