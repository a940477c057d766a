import CLibCrypto

extension TemporaryExposureKey {
    /// RPIK and AEMK together through libcrypto's HMAC. HKDF without salt extracts the same
    /// PRK for both (it depends only on the TEK), so this costs three HMACs instead of
    /// swift-crypto's two full HKDFs; a test checks it against the swift-crypto path.
    public var subKeys: (identifierKey: RollingProximityIdentifierKey, metadataKey: AssociatedEncryptedMetadataKey) {
        var ikm = keyData
        let zeroSalt = [UInt8](repeating: 0, count: 32)
        var prk = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        withUnsafeBytes(of: &ikm) { raw in
            _ = HMAC(EVP_sha256(), zeroSalt, 32, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 16, &prk, &length)
        }
        precondition(length == 32, "HMAC-SHA256 returned \(length) bytes")
        func expand(_ info: String) -> Bytes16 {
            let message = Array(info.utf8) + [1]
            var okm = [UInt8](repeating: 0, count: 32)
            var outLength: UInt32 = 0
            _ = HMAC(EVP_sha256(), prk, 32, message, message.count, &okm, &outLength)
            precondition(outLength == 32, "HMAC-SHA256 returned \(outLength) bytes")
            return Bytes16(bytes: okm[0..<16])!
        }
        return (RollingProximityIdentifierKey(keyData: expand(RollingProximityIdentifierKey.hkdfInfo)),
                AssociatedEncryptedMetadataKey(keyData: expand(AssociatedEncryptedMetadataKey.hkdfInfo)))
    }
}
