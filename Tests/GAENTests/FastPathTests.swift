import Testing
@testable import GAEN

@Suite struct FastPathTests {
    /// The libcrypto HMAC path gives the swift-crypto HKDF keys: official vector and random keys.
    @Test func subKeysMatchSwiftCryptoHKDF() throws {
        let tek = try TemporaryExposureKey(keyData: Bytes16(hex: "75c734c6dd1a782de7a965da5eb93125")!,
                                           rollingStartIntervalNumber: ENIntervalNumber(2_642_976))
        let keys = tek.subKeys
        #expect(keys.identifierKey.keyData.hex == "185ad91db69ec7dd048960f1f3ba6175")
        #expect(keys.metadataKey.keyData.hex == "d57c46af7a1d83965b9bed8bd152936a")
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let k = TemporaryExposureKey.generate(rollingStartIntervalNumber: ENIntervalNumber(2_642_976), using: &rng)
            #expect(k.subKeys.identifierKey == k.rollingProximityIdentifierKey)
            #expect(k.subKeys.metadataKey == k.associatedEncryptedMetadataKey)
        }
    }

    @Test func fastMetadataEncryptionMatchesAESCTR() throws {
        let deriver = try BatchRPIDeriver(capacity: 1)
        var rng = SystemRandomNumberGenerator()
        for tx in [Int8(-40), -17, 0, 8, 20] {
            let k = TemporaryExposureKey.generate(rollingStartIntervalNumber: ENIntervalNumber(2_642_976), using: &rng)
            let rpi = k.rollingProximityIdentifierKey.identifier(at: ENIntervalNumber(2_643_000))
            let metadata = BluetoothMetadata(transmitPowerDBm: tx)
            let fast = try deriver.encrypt(metadata, identifier: rpi, key: k.associatedEncryptedMetadataKey)
            #expect(fast == k.associatedEncryptedMetadataKey.encrypt(metadata, identifier: rpi))
        }
        // Official vector: AEM of interval 0 with metadata 40 08 00 00.
        let tek = try TemporaryExposureKey(keyData: Bytes16(hex: "75c734c6dd1a782de7a965da5eb93125")!,
                                           rollingStartIntervalNumber: ENIntervalNumber(2_642_976))
        let rpi = RollingProximityIdentifier(hex: "8be6cd371c5c891604bfbe49df845096")!
        #expect(try deriver.encrypt(BluetoothMetadata(transmitPowerDBm: 8), identifier: rpi, key: tek.associatedEncryptedMetadataKey).hex == "72033874")
    }
}
