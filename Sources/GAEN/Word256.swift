/// Modular inverse for a 256-bit odd modulus (the P-256 group order in `DeterministicECDSA`), by
/// the binary extended Euclidean algorithm (Hankerson, Menezes and Vanstone, "Guide to Elliptic
/// Curve Cryptography", Algorithm 2.22) on four 64-bit words. libcrypto's generic
/// `BN_mod_inverse` took a fifth of a small run's fixed daily cost (24 export signatures a day);
/// this takes a fraction of it. Tests check it against `BN_mod_inverse`. The nonce is secret
/// for a real server, not for a simulation, so this need not run in constant time.
struct Word256: Equatable {
    /// Least significant word first; four named words (not an array or SIMD vector, whose
    /// indexed loops cost ten times as much here).
    var w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    init(_ w: [UInt64]) {
        precondition(w.count == 4, "four 64-bit words")
        (w0, w1, w2, w3) = (w[0], w[1], w[2], w[3])
    }

    /// 32 big-endian bytes (as BN_bn2binpad writes them).
    init(bigEndian bytes: [UInt8]) {
        precondition(bytes.count == 32, "32 bytes")
        let w = (0..<4).map { i in (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[(3 - i) * 8 + $1]) } }
        self.init(w)
    }

    var words: [UInt64] { [w0, w1, w2, w3] }

    var bigEndianBytes: [UInt8] {
        let w = words
        return (0..<32).map { j in UInt8(truncatingIfNeeded: w[3 - j / 8] >> (56 - 8 * UInt64(j % 8))) }
    }

    var isEven: Bool { w0 & 1 == 0 }
    var isOne: Bool { w0 == 1 && w1 | w2 | w3 == 0 }
    var isZero: Bool { w0 | w1 | w2 | w3 == 0 }

    static func >= (a: Word256, b: Word256) -> Bool {
        if a.w3 != b.w3 { return a.w3 > b.w3 }
        if a.w2 != b.w2 { return a.w2 > b.w2 }
        if a.w1 != b.w1 { return a.w1 > b.w1 }
        return a.w0 >= b.w0
    }

    @inline(__always)
    private static func addWithCarry(_ a: UInt64, _ b: UInt64, _ carry: Bool) -> (UInt64, Bool) {
        let (s1, o1) = a.addingReportingOverflow(b)
        let (s2, o2) = s1.addingReportingOverflow(carry ? 1 : 0)
        return (s2, o1 || o2)
    }

    @inline(__always)
    private static func subtractWithBorrow(_ a: UInt64, _ b: UInt64, _ borrow: Bool) -> (UInt64, Bool) {
        let (d1, o1) = a.subtractingReportingOverflow(b)
        let (d2, o2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
        return (d2, o1 || o2)
    }

    /// self += b; returns the carry out.
    @discardableResult @inline(__always)
    mutating func add(_ b: Word256) -> Bool {
        var c = false
        (w0, c) = Self.addWithCarry(w0, b.w0, c)
        (w1, c) = Self.addWithCarry(w1, b.w1, c)
        (w2, c) = Self.addWithCarry(w2, b.w2, c)
        (w3, c) = Self.addWithCarry(w3, b.w3, c)
        return c
    }

    /// self -= b (mod 2²⁵⁶); returns the borrow out.
    @discardableResult @inline(__always)
    mutating func subtract(_ b: Word256) -> Bool {
        var c = false
        (w0, c) = Self.subtractWithBorrow(w0, b.w0, c)
        (w1, c) = Self.subtractWithBorrow(w1, b.w1, c)
        (w2, c) = Self.subtractWithBorrow(w2, b.w2, c)
        (w3, c) = Self.subtractWithBorrow(w3, b.w3, c)
        return c
    }

    /// self = (self + (carry ? 2²⁵⁶ : 0)) / 2.
    @inline(__always)
    mutating func halve(carry: Bool = false) {
        w0 = w0 >> 1 | w1 << 63
        w1 = w1 >> 1 | w2 << 63
        w2 = w2 >> 1 | w3 << 63
        w3 = w3 >> 1 | (carry ? 1 << 63 : 0)
    }

    /// a⁻¹ mod n for odd n and 0 < a < n with gcd(a, n) = 1 (n prime: any such a).
    static func inverse(_ a: Word256, modulo n: Word256) -> Word256 {
        precondition(!n.isEven && !a.isZero && !(a >= n), "0 < a < n, n odd")
        var u = a, v = n
        var x1 = Word256([1, 0, 0, 0]), x2 = Word256([0, 0, 0, 0])
        // Invariants: x1·a ≡ u and x2·a ≡ v (mod n), with x1, x2 < n.
        func halve(_ x: inout Word256) {
            if x.isEven { x.halve() } else { x.halve(carry: x.add(n)) }
        }
        while !u.isOne && !v.isOne {
            precondition(!u.isZero && !v.isZero, "not invertible")
            while u.isEven { u.halve(); halve(&x1) }
            while v.isEven { v.halve(); halve(&x2) }
            if u >= v {
                u.subtract(v)
                if x1.subtract(x2) { x1.add(n) }
            } else {
                v.subtract(u)
                if x2.subtract(x1) { x2.add(n) }
            }
        }
        return u.isOne ? x1 : x2
    }
}
