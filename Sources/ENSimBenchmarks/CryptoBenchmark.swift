import Foundation
import GAEN

/// RPI derivation rate on one core, next to OpenSSL's AES-128-ECB rates measured in the same
/// run (one block per call, and 144 blocks per call = one key's day).
public struct CryptoBenchmark {
    /// Seconds per measurement of our own paths.
    public var seconds: Double
    /// Seconds per `openssl speed` run (its -seconds).
    public var opensslSeconds: Int
    public var openssl: OpenSSLSpeed

    public init(seconds: Double, opensslSeconds: Int, openssl: OpenSSLSpeed) {
        self.seconds = seconds
        self.opensslSeconds = opensslSeconds
        self.openssl = openssl
    }

    public func run() throws -> BenchmarkReport {
        let blocks16 = try openssl.aes128ECBBlocksPerSecond(bytesPerCall: 16, seconds: opensslSeconds)
        let blocks2304 = try openssl.aes128ECBBlocksPerSecond(bytesPerCall: 2304, seconds: opensslSeconds)

        var rng = SystemRandomNumberGenerator()
        let keys = (0..<4096).map { _ in
            TemporaryExposureKey.generate(rollingStartIntervalNumber: ENIntervalNumber(2_642_976), using: &rng)
        }
        let rpiks = keys.map(\.rollingProximityIdentifierKey)
        let deriver = try BatchRPIDeriver()
        var buffer = [RollingProximityIdentifier](repeating: RollingProximityIdentifier(.zero), count: 144)
        var checksum: UInt64 = 0

        // Hot path of matching: RPIK known, one key schedule + 144 blocks.
        let fromRPIK = try buffer.withUnsafeMutableBufferPointer { out in
            try measure(seconds: seconds) { index in
                try deriver.derive(rpik: rpiks[index % rpiks.count], firstInterval: ENIntervalNumber(2_642_976), into: out)
                checksum ^= out[143].value.word0
                return 144
            }
        }
        // Including the HKDF that turns a downloaded TEK into its RPIK.
        let fromTEK = try buffer.withUnsafeMutableBufferPointer { out in
            try measure(seconds: seconds) { index in
                let written = try deriver.deriveAll(of: keys[index % keys.count], into: out)
                checksum ^= out[0].value.word1
                return written
            }
        }
        // The radio's case: a sender met at random, so one RPI and its AEM of a new key each time
        // (a key change on both contexts: OpenSSL 3's look-ups by name are most of the cost).
        let subKeys = keys.map(\.subKeys)
        let metadata = BluetoothMetadata(transmitPowerDBm: -20)
        let advertsOfNewKeys = try buffer.withUnsafeMutableBufferPointer { out in
            let one = UnsafeMutableBufferPointer(rebasing: out[0..<1])
            return try measure(seconds: seconds) { index in
                let sub = subKeys[index % subKeys.count]
                try deriver.derive(rpik: sub.identifierKey, firstInterval: ENIntervalNumber(2_642_976 + UInt32(index % 144)), into: one)
                let aem = try deriver.encrypt(metadata, identifier: one[0], key: sub.metadataKey)
                checksum ^= one[0].value.word0 ^ UInt64(aem.rawValue)
                return 1
            }
        }
        // swift-crypto reference path, one block and one key schedule per RPI.
        let reference = try measure(seconds: min(seconds, 1)) { index in
            let rpik = rpiks[index % rpiks.count]
            for interval in 0..<144 {
                checksum ^= rpik.identifier(at: ENIntervalNumber(2_642_976 + UInt32(interval))).value.word0
            }
            return 144
        }

        return BenchmarkReport([
            "rpi_per_second": fromRPIK.rounded(),
            "rpi_per_second_from_tek_including_hkdf": fromTEK.rounded(),
            "rpi_per_second_swift_crypto_single_block": reference.rounded(),
            "adverts_of_a_new_key_per_second": advertsOfNewKeys.rounded(),
            "ns_per_advert_of_a_new_key": (1e10 / advertsOfNewKeys).rounded() / 10,
            "openssl_aes128_ecb_blocks_per_second_16_bytes": blocks16.rounded(),
            "openssl_aes128_ecb_blocks_per_second_2304_bytes": blocks2304.rounded(),
            "ratio_to_openssl_16_bytes": (fromRPIK / blocks16 * 1000).rounded() / 1000,
            "ratio_to_openssl_2304_bytes": (fromRPIK / blocks2304 * 1000).rounded() / 1000,
            "target_met_one_block_rate": fromRPIK >= blocks16,
            "goal_met_half_of_144_block_rate": fromRPIK >= blocks2304 / 2,
            "openssl_version": openssl.version,
            "measure_seconds": seconds,
            "openssl_seconds": opensslSeconds,
            "checksum_ignore": String(checksum, radix: 16),
        ])
    }

    /// Runs `body` (which returns RPIs produced) repeatedly for about `seconds`; returns RPIs/s.
    private func measure(seconds: Double, _ body: (Int) throws -> Int) throws -> Double {
        // Warm up caches and the key-schedule code path.
        for index in 0..<256 { _ = try body(index) }
        let clock = ContinuousClock()
        let start = clock.now
        var produced = 0
        var iterations = 0
        var elapsed = 0.0
        while elapsed < seconds {
            for _ in 0..<512 {
                produced += try body(iterations)
                iterations += 1
            }
            elapsed = Machine.seconds(clock.now - start)
        }
        return Double(produced) / elapsed
    }
}
