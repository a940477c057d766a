import CLibCrypto
import Crypto
import Foundation
import Testing
@testable import GAEN

@Suite("Deterministic ECDSA (RFC 6979)")
struct DeterministicECDSATests {
    /// RFC 6979 appendix A.2.5: P-256 key and the SHA-256 signatures of "sample" and "test".
    static let x = HexCoding.decode("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721")!

    @Test(arguments: [
        ("sample", "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716",
         "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"),
        ("test", "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367",
         "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083"),
    ])
    func rfc6979Vectors(message: String, r: String, s: String) throws {
        let sig = DeterministicECDSA.sign(message: Data(message.utf8), privateKey: Self.x)
        #expect(HexCoding.encode(sig.r) == r)
        #expect(HexCoding.encode(sig.s) == s)
        // swift-crypto verifies it with the RFC's public key.
        let key = try P256.Signing.PrivateKey(rawRepresentation: Self.x)
        #expect(HexCoding.encode(Array(key.publicKey.rawRepresentation.prefix(32)))
                == "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6")
        let parsed = try P256.Signing.ECDSASignature(rawRepresentation: sig.r + sig.s)
        #expect(key.publicKey.isValidSignature(parsed, for: Data(message.utf8)))
        #expect(!key.publicKey.isValidSignature(parsed, for: Data((message + "!").utf8)))
    }

    @Test func exportArchivesAreByteIdenticalAndVerify() throws {
        let signing = try ExportSigningKey(privateKey: P256.Signing.PrivateKey(rawRepresentation: Self.x))
        let builder = ExportBuilder(signingKey: signing, signatureInfo: SignatureInfo(verificationKeyID: "262"))
        let key = DiagnosisKey(try TemporaryExposureKey(keyData: Bytes16(hex: "75c734c6dd1a782de7a965da5eb93125")!,
                                                        rollingStartIntervalNumber: ENIntervalNumber(2_642_976)),
                               transmissionRiskLevel: 5)
        let a = try builder.archive(keys: [key], region: "DE", startTimestamp: 1, endTimestamp: 2)
        let b = try builder.archive(keys: [key], region: "DE", startTimestamp: 1, endTimestamp: 2)
        #expect(a == b)
        let read = try ExportReader.read(archive: a, verifyingWith: signing.verificationKey)
        #expect(read.keys == [key])
        // Many messages: every signature verifies (covers nonce retries and short r/s).
        for i in 0..<64 {
            let m = Data("message \(i)".utf8)
            let der = try signing.signature(for: m)
            #expect(try signing.verificationKey.isValidSignature(der, for: m))
        }
    }
}

@Suite("256-bit modular inverse")
struct Word256Tests {
    @Test func inversesMatchLibcrypto() throws {
        let n = Word256(bigEndian: DeterministicECDSA.order)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return state }
        let ctx = BN_CTX_new()!
        defer { BN_CTX_free(ctx) }
        let bnN = BN_bin2bn(DeterministicECDSA.order, 32, nil)!
        defer { BN_free(bnN) }
        var samples: [Word256] = [Word256([1, 0, 0, 0]), Word256([2, 0, 0, 0])]
        var nMinus1 = n
        nMinus1.subtract(Word256([1, 0, 0, 0]))
        samples.append(nMinus1)
        for _ in 0..<300 {
            var a = Word256([next(), next(), next(), next() >> UInt64(next() % 64)])
            if a >= n { a.subtract(n) }
            if !a.isZero { samples.append(a) }
        }
        for a in samples {
            let inverse = Word256.inverse(a, modulo: n)
            let bnA = BN_bin2bn(a.bigEndianBytes, 32, nil)!
            let expected = BN_mod_inverse(nil, bnA, bnN, ctx)!
            var bytes = [UInt8](repeating: 0, count: 32)
            BN_bn2binpad(expected, &bytes, 32)
            #expect(inverse.bigEndianBytes == bytes)
            #expect(Word256(bigEndian: bytes) == inverse)
            BN_free(bnA)
            BN_free(expected)
        }
    }
}
