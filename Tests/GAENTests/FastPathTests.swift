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

    /// The deriver keys each context again only when the key changes: interleaving keys (as the
    /// radio does, sender after sender, and repeats of one sender) must give the reference results.
    @Test func interleavedAndRepeatedKeysGiveTheReferenceResults() throws {
        let deriver = try BatchRPIDeriver(capacity: 1)
        var rng = SystemRandomNumberGenerator()
        let keys = (0..<3).map { _ in TemporaryExposureKey.generate(rollingStartIntervalNumber: ENIntervalNumber(2_642_976), using: &rng) }
        let metadata = BluetoothMetadata(transmitPowerDBm: -17)
        for step in 0..<60 {
            let k = keys[(step / 2 + step * step) % 3]
            let interval = ENIntervalNumber(2_642_976 + UInt32(step % 144))
            var rpi = RollingProximityIdentifier(.zero)
            try withUnsafeMutablePointer(to: &rpi) {
                try deriver.derive(rpik: k.rollingProximityIdentifierKey, firstInterval: interval, into: UnsafeMutableBufferPointer(start: $0, count: 1))
            }
            #expect(rpi == k.rollingProximityIdentifierKey.identifier(at: interval), "step \(step)")
            let aem = try deriver.encrypt(metadata, identifier: rpi, key: k.associatedEncryptedMetadataKey)
            #expect(aem == k.associatedEncryptedMetadataKey.encrypt(metadata, identifier: rpi), "step \(step)")
        }
    }
}
