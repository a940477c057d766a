import CLibCrypto

extension TemporaryExposureKey {
    /// RPIK and AEMK together: HKDF-SHA256 (RFC 5869) without salt, written out as the HMACs it
    /// is made of, on libcrypto's SHA-256 (SHA-NI where the CPU has it). Both sub-keys share one
    /// extract (the PRK depends only on the TEK), the zero-salt pad states are computed once per
    /// process, and the PRK's pad states once per key: eight SHA-256 blocks and no allocation,
    /// instead of three one-shot HMACs (twelve blocks plus a context each). Matching derives a
    /// key's sub-keys for every published key, so this is on the hot path. Tests check it
    /// against the official vectors and against swift-crypto's HKDF.
    public var subKeys: (identifierKey: RollingProximityIdentifierKey, metadataKey: AssociatedEncryptedMetadataKey) {
        var tek = keyData
        var prk = SHA256Digest(), digest = SHA256Digest(), scratch = SHA256Digest()
        withUnsafeBytes(of: &tek) { HMACPadStates.zeroSalt.mac($0, into: &prk, scratch: &scratch) }
        let states = withUnsafeBytes(of: &prk) { HMACPadStates(key: $0) }
        HMACInfo.rpik.withUnsafeBytes { states.mac($0, into: &digest, scratch: &scratch) }
        let rpik = digest.first16
        HMACInfo.aemk.withUnsafeBytes { states.mac($0, into: &digest, scratch: &scratch) }
        return (RollingProximityIdentifierKey(keyData: rpik), AssociatedEncryptedMetadataKey(keyData: digest.first16))
    }
}

/// HKDF-Expand's single-block inputs for GAEN's two sub-keys: the info string, then counter 1.
private enum HMACInfo {
    static let rpik = Array(RollingProximityIdentifierKey.hkdfInfo.utf8) + [1]
    static let aemk = Array(AssociatedEncryptedMetadataKey.hkdfInfo.utf8) + [1]
}
