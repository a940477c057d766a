import CLibCrypto

// HMAC-SHA256 (RFC 2104) on libcrypto's low-level SHA-256, shared by the sub-key derivation
// (HKDF) and the RFC 6979 nonces of export signatures.

/// A 32-byte SHA-256 digest on the stack.
struct SHA256Digest {
    var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The first 16 bytes: GAEN sub-keys are HKDF output truncated to 128 bits.
    var first16: Bytes16 { Bytes16(word0: words.0, word1: words.1) }
}

/// SHA-256 states after absorbing the key XOR ipad and XOR opad blocks (RFC 2104), so each
/// HMAC under that key costs two compressions. States are plain C structs: copying one is a
/// memcpy, which is why this uses libcrypto's low-level SHA-256 rather than EVP contexts.
struct HMACPadStates: @unchecked Sendable {
    private var inner = SHA256_CTX()
    private var outer = SHA256_CTX()

    /// HKDF's default salt: 32 zero bytes.
    static let zeroSalt: HMACPadStates = {
        let zeros = [UInt8](repeating: 0, count: 32)
        return zeros.withUnsafeBytes { HMACPadStates(key: $0) }
    }()

    /// Keys of at most one block (64 bytes), as HKDF-SHA256's salt and PRK always are here.
    init(key: UnsafeRawBufferPointer) {
        precondition(key.count <= 64, "HMAC key longer than a SHA-256 block")
        inner = Self.absorb(key, xor: 0x36)
        outer = Self.absorb(key, xor: 0x5c)
    }

    private static func absorb(_ key: UnsafeRawBufferPointer, xor pad: UInt8) -> SHA256_CTX {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
            for i in 0..<64 { block[i] = (i < key.count ? key[i] : 0) ^ pad }
            var ctx = SHA256_CTX()
            SHA256_Init(&ctx)
            SHA256_Update(&ctx, block.baseAddress, 64)
            return ctx
        }
    }

    /// HMAC-SHA256(key, message) into `digest`; `scratch` holds the inner hash.
    func mac(_ message: UnsafeRawBufferPointer, into digest: inout SHA256Digest, scratch: inout SHA256Digest) {
        var ctx = inner
        SHA256_Update(&ctx, message.baseAddress, message.count)
        withUnsafeMutableBytes(of: &scratch) { inner in
            _ = SHA256_Final(inner.baseAddress!.assumingMemoryBound(to: UInt8.self), &ctx)
            ctx = outer
            SHA256_Update(&ctx, inner.baseAddress, 32)
        }
        withUnsafeMutableBytes(of: &digest) { _ = SHA256_Final($0.baseAddress!.assumingMemoryBound(to: UInt8.self), &ctx) }
    }
}

extension HMACPadStates {
    /// HMAC-SHA256(key, message) for a key of at most one block, as bytes.
    static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let states = key.withUnsafeBytes { HMACPadStates(key: $0) }
        var digest = SHA256Digest(), scratch = SHA256Digest()
        message.withUnsafeBytes { states.mac($0, into: &digest, scratch: &scratch) }
        return withUnsafeBytes(of: &digest) { Array($0) }
    }
}
