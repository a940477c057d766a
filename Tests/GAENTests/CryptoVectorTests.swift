import Foundation
import Testing
@testable import GAEN

private func bytes(_ hex: String) -> [UInt8] { HexCoding.decode(hex)! }

private let vectorKey = try! TemporaryExposureKey(
    keyData: Bytes16(hex: OfficialTestVectors.temporaryExposureKey)!,
    rollingStartIntervalNumber: ENIntervalNumber(OfficialTestVectors.intervalNumberOfKey))

private let vectorMetadata = try! BluetoothMetadata(bytes: bytes(OfficialTestVectors.bleMetadata))

@Suite("Cryptography: official EN test vectors v1.2")
struct CryptoVectorTests {
    @Test func intervalNumberOfKeyGenerationTime() {
        let interval = ENIntervalNumber(unixTime: OfficialTestVectors.keyGenerationUnixSeconds)
        #expect(interval.rawValue == OfficialTestVectors.intervalNumberOfKey)
        #expect(interval.unixTime == OfficialTestVectors.keyGenerationUnixSeconds)
        #expect(ENIntervalNumber(unixTime: OfficialTestVectors.keyGenerationUnixSeconds + 599) == interval)
        #expect(ENIntervalNumber(unixTime: OfficialTestVectors.keyGenerationUnixSeconds + 600) == interval.advanced(by: 1))
    }

    @Test func subKeysMatchHKDFVectors() {
        #expect(vectorKey.rollingProximityIdentifierKey.keyData.hex == OfficialTestVectors.rpik)
        #expect(vectorKey.associatedEncryptedMetadataKey.keyData.hex == OfficialTestVectors.aemk)
    }

    @Test func paddedDataLayout() {
        let padded = RollingProximityIdentifierKey.paddedData(for: ENIntervalNumber(OfficialTestVectors.intervalNumberOfKey))
        #expect(padded.hex == OfficialTestVectors.firstPaddedData)
    }

    @Test func metadataBytes() {
        #expect(vectorMetadata == BluetoothMetadata(versionByte: 0x40, transmitPowerDBm: 8))
        #expect(BluetoothMetadata(transmitPowerDBm: -15).bytes == [0x40, 0xf1, 0, 0])
    }

    @Test func all144IdentifiersReferencePath() {
        let rpik = vectorKey.rollingProximityIdentifierKey
        #expect(OfficialTestVectors.advertised.count == 144)
        for (i, expected) in OfficialTestVectors.advertised.enumerated() {
            let rpi = rpik.identifier(at: vectorKey.rollingStartIntervalNumber.advanced(by: i))
            #expect(rpi.hex == expected.rpi, "RPI \(i)")
        }
    }

    @Test func all144MetadataEncryptAndDecrypt() {
        let aemk = vectorKey.associatedEncryptedMetadataKey
        for (i, expected) in OfficialTestVectors.advertised.enumerated() {
            let rpi = RollingProximityIdentifier(hex: expected.rpi)!
            let aem = aemk.encrypt(vectorMetadata, identifier: rpi)
            #expect(aem.hex == expected.aem, "AEM \(i)")
            #expect(aemk.decrypt(aem, identifier: rpi) == vectorMetadata)
        }
        let (rpi, aem) = vectorKey.advertisement(at: vectorKey.rollingStartIntervalNumber.advanced(by: 143), metadata: vectorMetadata)
        #expect(rpi.hex == OfficialTestVectors.advertised[143].rpi)
        #expect(aem.hex == OfficialTestVectors.advertised[143].aem)
    }

    @Test func batchPathMatchesVectors() throws {
        let deriver = try BatchRPIDeriver()
        let rpis = try deriver.identifiers(of: vectorKey)
        #expect(rpis.map(\.hex) == OfficialTestVectors.advertised.map(\.rpi))
    }

    @Test func batchPathMatchesReferenceOnRandomKeys() throws {
        var rng = SplitMix64(seed: 0x5eed_2020)
        let deriver = try BatchRPIDeriver()
        var buffer = [RollingProximityIdentifier](repeating: RollingProximityIdentifier(.zero), count: 144)
        for trial in 0..<300 {
            let period = trial % 3 == 0 ? UInt32.random(in: 1...144, using: &rng) : 144
            let start = ENIntervalNumber(UInt32.random(in: 0...UInt32.max - 200, using: &rng))
            let tek = try TemporaryExposureKey(keyData: .random(using: &rng), rollingStartIntervalNumber: start,
                                               rollingPeriod: period)
            let written = try buffer.withUnsafeMutableBufferPointer { try deriver.deriveAll(of: tek, into: $0) }
            #expect(written == Int(period))
            let rpik = tek.rollingProximityIdentifierKey
            for i in 0..<written {
                #expect(buffer[i] == rpik.identifier(at: start.advanced(by: i)), "trial \(trial) interval \(i)")
            }
        }
    }

    @Test func batchBeyondDefaultCapacityGrows() throws {
        let deriver = try BatchRPIDeriver(capacity: 4)
        let rpik = vectorKey.rollingProximityIdentifierKey
        var out = [RollingProximityIdentifier](repeating: RollingProximityIdentifier(.zero), count: 300)
        try out.withUnsafeMutableBufferPointer {
            try deriver.derive(rpik: rpik, firstInterval: vectorKey.rollingStartIntervalNumber, into: $0)
        }
        #expect(Array(out.prefix(144).map(\.hex)) == OfficialTestVectors.advertised.map(\.rpi))
        #expect(out[299] == rpik.identifier(at: vectorKey.rollingStartIntervalNumber.advanced(by: 299)))
    }

    @Test func batchRejectsSmallBuffer() throws {
        let deriver = try BatchRPIDeriver()
        var out = [RollingProximityIdentifier](repeating: RollingProximityIdentifier(.zero), count: 10)
        #expect(throws: GAENError.outputBufferTooSmall(needed: 144, available: 10)) {
            try out.withUnsafeMutableBufferPointer { try deriver.deriveAll(of: vectorKey, into: $0) }
        }
    }

    @Test func compactLayout() {
        #expect(MemoryLayout<Bytes16>.size == 16 && MemoryLayout<Bytes16>.stride == 16)
        #expect(MemoryLayout<RollingProximityIdentifier>.stride == 16)
    }

    @Test func byteOrderComparison() {
        let a = Bytes16(hex: "00ff0000000000000000000000000000")!
        let b = Bytes16(hex: "01000000000000000000000000000000")!
        let c = Bytes16(hex: "0100000000000000ff00000000000000")!
        let d = Bytes16(hex: "01000000000000010000000000000000")!
        #expect(a < b && b < c && c < d && !(d < a))
    }

    @Test func hexParsing() {
        #expect(Bytes16(hex: "75C734C6DD1A782DE7A965DA5EB93125")?.hex == OfficialTestVectors.temporaryExposureKey)
        #expect(Bytes16(hex: "75c7") == nil)
        #expect(Bytes16(hex: "zz c734c6dd1a782de7a965da5eb93125") == nil)
        #expect(HexCoding.decode("abc") == nil)
    }

    @Test func rollingPeriodValidated() {
        #expect(throws: GAENError.invalidRollingPeriod(0)) {
            try TemporaryExposureKey(keyData: .zero, rollingStartIntervalNumber: ENIntervalNumber(0), rollingPeriod: 0)
        }
        #expect(throws: GAENError.invalidRollingPeriod(145)) {
            try TemporaryExposureKey(keyData: .zero, rollingStartIntervalNumber: ENIntervalNumber(0), rollingPeriod: 145)
        }
    }

    @Test func seededKeyGenerationIsReproducible() {
        var a = SplitMix64(seed: 7), b = SplitMix64(seed: 7)
        let start = ENIntervalNumber(2_642_976)
        #expect(TemporaryExposureKey.generate(rollingStartIntervalNumber: start, using: &a)
                == TemporaryExposureKey.generate(rollingStartIntervalNumber: start, using: &b))
        #expect(TemporaryExposureKey.generate(rollingStartIntervalNumber: start).keyData
                != TemporaryExposureKey.generate(rollingStartIntervalNumber: start).keyData)
        #expect(start.advanced(by: 100).startOfDay == start)
    }
}

/// Small deterministic generator so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
