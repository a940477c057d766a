import ArgumentParser
import Foundation
import GAEN
import Simulation

/// `ensim bench matcher`: RPI derivation rate (per core, alone and inside the key-index build) against
/// `openssl speed -evp aes-128-ecb` single blocks, and match throughput at 1, 2 and all cores.
struct MatcherBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matcher",
        abstract: "RPI derivations/s per core (alone and in the key-index build) vs openssl AES-128-ECB; encounters matched/s at 1, 2, all cores.",
        discussion: "ensim bench matcher --json --out Results/benchmarks/matcher.json")

    @Option(help: "Population of the simulated world whose encounters are matched.")
    var population = 200_000

    @Option(help: "Published keys in the index.")
    var keys = 20_000

    @Option(help: "Repetitions of each timed part; the fastest counts (the machine is shared and noisy).")
    var repeats = 5

    @OptionGroup var output: BenchOutputOptions

    func run() throws {
        let loadBefore = EngineBenchmark.loadAverage
        var rng = SystemRandomNumberGenerator()
        let start: Int64 = 18_536 * 86_400
        let published = (0..<keys).map { i in
            PublishedKey(key: DiagnosisKey(TemporaryExposureKey.generate(rollingStartIntervalNumber: ENIntervalNumber(unixTime: start + Int64(i % 7) * 86_400), using: &rng)),
                         uploader: -1, uploadedAt: start)
        }
        let package = PublishedPackage(sequence: 0, name: "bench", kind: .batch, publishedAt: start, covers: start..<start + 1, keys: published, bytes: 0)
        let clock = ContinuousClock()
        func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
        // Derivation alone (HKDF of both sub-keys, then the key's RPIs), as the index does it,
        // into one buffer; then the whole index build (plus dedup and the hash table).
        let teks = published.map(\.key.temporaryExposureKey)
        let deriver = try BatchRPIDeriver()
        let rpis = UnsafeMutableBufferPointer<RollingProximityIdentifier>.allocate(capacity: teks.count * 144)
        defer { rpis.deallocate() }
        var derived = 0
        func fastest(_ body: () throws -> Void) rethrows -> Duration {
            var best = Duration.seconds(Int64.max)
            for _ in 0..<max(1, repeats) { best = min(best, try clock.measure(body)) }
            return best
        }
        let deriveTime = try fastest {
            derived = 0
            for tek in teks {
                let sub = tek.subKeys
                try deriver.derive(rpik: sub.identifierKey, firstInterval: tek.rollingStartIntervalNumber,
                                   into: UnsafeMutableBufferPointer(rebasing: rpis[derived..<derived + Int(tek.rollingPeriod)]))
                derived += Int(tek.rollingPeriod)
            }
        }
        let derivedPerSecond = Double(derived) / seconds(deriveTime)
        var index: DiagnosisKeyIndex? = nil
        let buildTime = try fastest { index = try DiagnosisKeyIndex(packages: [package], threads: 1) }
        let indexedPerSecond = Double(index!.identifierCount) / seconds(buildTime)

        let config = SimulationConfig(name: "bench-matcher", seed: 1, start: start, days: 7,
                                      population: PopulationParameters(size: population, appAdoption: 0.5), writeHourly: false,
                                      threads: ProcessInfo.processInfo.activeProcessorCount)
        let simulation = try Simulation(config: config)
        _ = try simulation.run()
        let world = simulation.detectionWorld
        let phones = world.appPhoneOwners.count
        let all = (0..<phones).map { PackageDownload(phone: Int32($0), package: 0, at: start + 8 * 86_400) }
        var rates: [String: Double] = [:]
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // Thread counts interleaved within each repetition, so a noisy spell hits all of them alike.
        let threadCounts = Array(Set([1, 2, cores])).sorted()
        var best = [Int: Duration]()
        var checked = 0
        for _ in 0..<max(1, repeats) {
            for threads in threadCounts {
                let t = clock.measure {
                    checked = Matcher.match(index: index!, store: world.encounters, phones: phones, start: start,
                                            downloads: { all[$0...$0] }, threads: threads).encountersChecked
                }
                best[threads] = min(best[threads] ?? t, t)
            }
        }
        for threads in threadCounts {
            rates["encounters_per_second_\(threads)_threads"] = (Double(checked) / seconds(best[threads]!)).rounded()
            rates["match_seconds_\(threads)_threads"] = (seconds(best[threads]!) * 1e4).rounded() / 1e4
        }
        let openssl = try opensslSingleBlockRate()
        let oneThread = rates["encounters_per_second_1_threads"]!
        let twoThreads = rates["encounters_per_second_2_threads"] ?? oneThread
        var result: [String: Any] = [
            "rpi_derivations_per_second_per_core": derivedPerSecond.rounded(),
            "openssl_aes128_ecb_single_block_per_second": openssl.rounded(),
            "ratio_to_openssl": (derivedPerSecond / openssl * 1000).rounded() / 1000,
            "index_build_rpis_per_second_per_core": indexedPerSecond.rounded(),
            "index_build_ratio_to_openssl": (indexedPerSecond / openssl * 1000).rounded() / 1000,
            "target_met_half_of_openssl": derivedPerSecond >= openssl / 2,
            "speedup_2_threads": (twoThreads / oneThread * 100).rounded() / 100,
            "target_met_speedup_1_8": twoThreads / oneThread >= 1.8,
            "keys": keys, "population": population, "phones": phones, "cores": cores, "repeats_fastest_of": repeats,
            "encounters_checked": checked,
        ]
        for (k, v) in rates { result[k] = v }
        if let loadBefore, let loadAfter = EngineBenchmark.loadAverage {
            result["load_average"] = "\(loadBefore) at start, \(loadAfter) at end (1, 5, 15 min)"
        }
        try emitBenchResult(result, options: output)
    }

    /// `openssl speed -elapsed -evp aes-128-ecb -bytes 16`: 1000s of bytes/s → blocks/s.
    func opensslSingleBlockRate() throws -> Double {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["openssl", "speed", "-elapsed", "-seconds", "2", "-evp", "aes-128-ecb", "-bytes", "16"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard let line = text.split(separator: "\n").last(where: { $0.uppercased().hasPrefix("AES-128-ECB") }),
              let field = line.split(separator: " ").last, let kilo = Double(field.dropLast(field.hasSuffix("k") ? 1 : 0)) else {
            throw ValidationError("cannot parse openssl speed output:\n\(text)")
        }
        return kilo * 1000 / 16
    }
}
