import CLibCrypto
import Crypto
import Foundation

/// ECDSA P-256 with SHA-256 and deterministic nonces (RFC 6979, HMAC-SHA256 DRBG).
///
/// swift-crypto draws a random nonce per signature, so the same export would get a different
/// export.sig (and sometimes a different length) on every run. With RFC 6979 the nonce is a
/// function of key and message: equal inputs give byte-identical signatures, which still
/// verify as ordinary ECDSA. The curve arithmetic uses the system libcrypto.
public enum DeterministicECDSA {
    /// Order n of the P-256 group.
    static let order: [UInt8] = HexCoding.decode("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")!

    /// (r, s), 32 bytes each, for SHA-256 of `message` under the 32-byte private scalar.
    public static func sign(message: Data, privateKey: [UInt8]) -> (r: [UInt8], s: [UInt8]) {
        sign(digest: Array(SHA256.hash(data: message)), privateKey: privateKey)
    }

    public static func sign(digest: [UInt8], privateKey x: [UInt8]) -> (r: [UInt8], s: [UInt8]) {
        precondition(digest.count == 32 && x.count == 32, "P-256/SHA-256 takes 32-byte digests and scalars")
        let group = Curve.shared.group, n = Curve.shared.order
        let ctx = BN_CTX_new()!
        let d = BN_bin2bn(x, 32, nil)!, e = BN_bin2bn(digest, 32, nil)!
        let k = BN_new()!, r = BN_new()!, s = BN_new()!, t = BN_new()!, px = BN_new()!
        let point = EC_POINT_new(group)!
        defer {
            for bn in [d, e, k, r, s, t, px] { BN_clear_free(bn) }
            EC_POINT_free(point)
            BN_CTX_free(ctx)
        }
        var nonces = NonceGenerator(privateKey: x, digest: reduced(digest))
        while true {
            let candidate = nonces.next()
            BN_bin2bn(candidate, 32, k)
            guard BN_is_zero(k) == 0, BN_cmp(k, n) < 0 else { continue }
            // r = x(k·G) mod n; s = k⁻¹ (e + r·d) mod n.
            guard EC_POINT_mul(group, point, k, nil, nil, ctx) == 1,
                  EC_POINT_get_affine_coordinates(group, point, px, nil, ctx) == 1,
                  BN_nnmod(r, px, n, ctx) == 1, BN_is_zero(r) == 0 else { continue }
            var kb = [UInt8](repeating: 0, count: 32)
            BN_bn2binpad(k, &kb, 32)
            let inverse = Word256.inverse(Word256(bigEndian: kb), modulo: Curve.shared.orderWords).bigEndianBytes
            guard let kinv = BN_bin2bn(inverse, 32, nil) else { continue }
            defer { BN_clear_free(kinv) }
            guard BN_mod_mul(t, r, d, n, ctx) == 1, BN_mod_add(t, t, e, n, ctx) == 1,
                  BN_mod_mul(s, kinv, t, n, ctx) == 1, BN_is_zero(s) == 0 else { continue }
            var rb = [UInt8](repeating: 0, count: 32), sb = [UInt8](repeating: 0, count: 32)
            BN_bn2binpad(r, &rb, 32)
            BN_bn2binpad(s, &sb, 32)
            return (rb, sb)
        }
    }

    /// The P-256 group and its order, made once: building a group costs as much as a signature
    /// (libcrypto sets up Montgomery forms), and a backend signs an export every hour. Signing
    /// only reads them, which libcrypto allows from several threads at once.
    final class Curve: @unchecked Sendable {
        static let shared = Curve()
        let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1)!
        let order = BN_bin2bn(DeterministicECDSA.order, 32, nil)!
        let orderWords = Word256(bigEndian: DeterministicECDSA.order)
    }

    /// bits2octets: the digest as an integer reduced once modulo n (RFC 6979 §2.3.4).
    static func reduced(_ h: [UInt8]) -> [UInt8] {
        guard !h.lexicographicallyPrecedes(order) else { return h }
        var out = [UInt8](repeating: 0, count: 32), borrow = 0
        for i in stride(from: 31, through: 0, by: -1) {
            let v = Int(h[i]) - Int(order[i]) - borrow
            out[i] = UInt8((v + 256) & 0xff)
            borrow = v < 0 ? 1 : 0
        }
        return out
    }

    /// The HMAC-DRBG of RFC 6979 §3.2 for qlen = hlen = 256: successive candidate nonces.
    struct NonceGenerator {
        var v = [UInt8](repeating: 0x01, count: 32)
        var key = [UInt8](repeating: 0x00, count: 32)
        var started = false

        init(privateKey x: [UInt8], digest h1: [UInt8]) {
            key = mac(key, v + [0x00] + x + h1)
            v = mac(key, v)
            key = mac(key, v + [0x01] + x + h1)
            v = mac(key, v)
        }

        /// Step h of §3.2; after a rejected candidate K and V are updated first.
        mutating func next() -> [UInt8] {
            if started {
                key = mac(key, v + [0x00])
                v = mac(key, v)
            }
            started = true
            v = mac(key, v)
            return v
        }

        func mac(_ key: [UInt8], _ data: [UInt8]) -> [UInt8] { HMACPadStates.mac(key: key, message: data) }
    }
}
