import ArgumentParser
import Foundation
import GAEN

/// `ensim bench crypto`: RPI derivation rate on one core, next to OpenSSL's AES-128-ECB rates
/// measured in the same run (one block per call, and 144 blocks per call = one key's day).
struct CryptoBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypto",
        abstract: "RPIs derived per second (batch path) vs `openssl speed` AES-128-ECB, one core."
    )

    @OptionGroup var output: BenchOutputOptions

    @Option(help: "Seconds per measurement of our own paths.")
    var seconds: Double = 2

    @Option(help: "Seconds per `openssl speed` run (its -seconds).")
    var opensslSeconds: Int = 3

    @Option(help: "The openssl executable.")
    var openssl: String = "openssl"

    func validate() throws {
        guard seconds > 0, opensslSeconds > 0 else { throw ValidationError("--seconds and --openssl-seconds must be positive") }
    }

    func run() throws {
        let blocks16 = try opensslBlocksPerSecond(bytesPerCall: 16)
        let blocks2304 = try opensslBlocksPerSecond(bytesPerCall: 2304)

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
        // swift-crypto reference path, one block and one key schedule per RPI.
        let reference = try measure(seconds: min(seconds, 1)) { index in
            let rpik = rpiks[index % rpiks.count]
            for interval in 0..<144 {
                checksum ^= rpik.identifier(at: ENIntervalNumber(2_642_976 + UInt32(interval))).value.word0
            }
            return 144
        }

        let result: [String: Any] = [
            "rpi_per_second": fromRPIK.rounded(),
            "rpi_per_second_from_tek_including_hkdf": fromTEK.rounded(),
            "rpi_per_second_swift_crypto_single_block": reference.rounded(),
            "openssl_aes128_ecb_blocks_per_second_16_bytes": blocks16.rounded(),
            "openssl_aes128_ecb_blocks_per_second_2304_bytes": blocks2304.rounded(),
            "ratio_to_openssl_16_bytes": (fromRPIK / blocks16 * 1000).rounded() / 1000,
            "ratio_to_openssl_2304_bytes": (fromRPIK / blocks2304 * 1000).rounded() / 1000,
            "target_met_one_block_rate": fromRPIK >= blocks16,
            "goal_met_half_of_144_block_rate": fromRPIK >= blocks2304 / 2,
            "openssl_version": opensslVersion(),
            "measure_seconds": seconds,
            "openssl_seconds": opensslSeconds,
            "checksum_ignore": String(checksum, radix: 16),
        ]
        try emitBenchResult(result, options: output)
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
            let duration = clock.now - start
            elapsed = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        }
        return Double(produced) / elapsed
    }

    /// `openssl speed -elapsed -evp aes-128-ecb -bytes N`, converted from 1000s of bytes/s to blocks/s.
    private func opensslBlocksPerSecond(bytesPerCall: Int) throws -> Double {
        let text = try runOpenSSL(["speed", "-elapsed", "-seconds", String(opensslSeconds), "-evp", "aes-128-ecb",
                                   "-bytes", String(bytesPerCall)])
        guard let kiloBytesPerSecond = Self.parseSpeedTable(text) else {
            throw gaenFail("cannot find the AES-128-ECB row after \"The 'numbers' are in 1000s of bytes per second\" in openssl output:\n\(text)")
        }
        return kiloBytesPerSecond * 1000 / 16
    }

    /// The first rate (in 1000s of bytes per second) of the aes-128-ecb row of `openssl speed`.
    static func parseSpeedTable(_ text: String) -> Double? {
        let lines = text.split(separator: "\n").map(String.init)
        guard let marker = lines.firstIndex(where: { $0.contains("The 'numbers' are in 1000s of bytes per second") }) else {
            return nil
        }
        for line in lines[marker...] where line.lowercased().hasPrefix("aes-128-ecb") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, fields[1].hasSuffix("k"), let value = Double(fields[1].dropLast()) else { return nil }
            return value
        }
        return nil
    }

    private func opensslVersion() -> String {
        ((try? runOpenSSL(["version"])) ?? "unknown").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func runOpenSSL(_ arguments: [String]) throws -> String {
        let process = Process()
        if openssl.contains("/") {
            process.executableURL = URL(fileURLWithPath: openssl)
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [openssl]
        }
        process.arguments = (process.arguments ?? []) + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            throw gaenFail("cannot run '\(openssl)' (\(error.localizedDescription)); install OpenSSL (apt-get install openssl) or pass --openssl PATH")
        }
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw gaenFail("'\(openssl) \(arguments.joined(separator: " "))' exited with status \(process.terminationStatus); is '\(openssl)' installed?")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
