import Detection
import Foundation
import GAEN
import HealthBackend
import Simulation
import World

/// RPI derivation rate per core (alone and inside the key-index build) against
/// `openssl speed -evp aes-128-ecb` single blocks, and match throughput at 1, 2 and all cores.
public struct MatcherBenchmark {
    /// Population of the simulated world whose encounters are matched.
    public var population: Int
    /// Published keys in the index.
    public var keys: Int
    /// Repetitions of each timed part; the fastest counts (the machine is shared and noisy).
    public var repeats: Int

    public init(population: Int, keys: Int, repeats: Int) {
        self.population = population
        self.keys = keys
        self.repeats = repeats
    }

    public func run() throws -> BenchmarkReport {
        let loadBefore = Machine.loadAverage
        var rng = SystemRandomNumberGenerator()
        let start: Int64 = 18_536 * 86_400
        let published = (0..<keys).map { i in
            PublishedKey(key: DiagnosisKey(TemporaryExposureKey.generate(rollingStartIntervalNumber: ENIntervalNumber(unixTime: start + Int64(i % 7) * 86_400), using: &rng)),
                         uploader: -1, uploadedAt: start)
        }
        let package = PublishedPackage(sequence: 0, name: "bench", kind: .batch, publishedAt: start, covers: start..<start + 1, keys: published, bytes: 0)
        let clock = ContinuousClock()
        func fastest(_ body: () throws -> Void) rethrows -> Duration {
            var best = Duration.seconds(Int64.max)
            for _ in 0..<max(1, repeats) { best = min(best, try clock.measure(body)) }
            return best
        }
        // Derivation alone (HKDF of both sub-keys, then the key's RPIs), as the index does it,
        // into one buffer; then the whole index build (plus dedup and the hash table).
        let teks = published.map(\.key.temporaryExposureKey)
        let deriver = try BatchRPIDeriver()
        let rpis = UnsafeMutableBufferPointer<RollingProximityIdentifier>.allocate(capacity: teks.count * 144)
        defer { rpis.deallocate() }
        var derived = 0
        let deriveTime = try fastest {
            derived = 0
            for tek in teks {
                let sub = tek.subKeys
                try deriver.derive(rpik: sub.identifierKey, firstInterval: tek.rollingStartIntervalNumber,
                                   into: UnsafeMutableBufferPointer(rebasing: rpis[derived..<derived + Int(tek.rollingPeriod)]))
                derived += Int(tek.rollingPeriod)
            }
        }
        let derivedPerSecond = Double(derived) / Machine.seconds(deriveTime)
        var built: DiagnosisKeyIndex?
        let buildTime = try fastest { built = try DiagnosisKeyIndex(packages: [package], threads: 1) }
        guard let index = built else { throw BenchmarkError("the key index was not built") }
        let indexedPerSecond = Double(index.identifierCount) / Machine.seconds(buildTime)

        var config = SimulationConfig(name: "bench-matcher", seed: 1, start: start, days: 7,
                                      population: PopulationParameters(size: population, appAdoption: 0.5), writeHourly: false,
                                      threads: ProcessInfo.processInfo.activeProcessorCount)
        config.retainsGroundTruth = true
        let simulation = try Simulation(config: config)
        _ = try simulation.run()
        let world = simulation.detectionWorld
        let phones = world.appPhoneOwners.count
        let all = (0..<phones).map { PackageDownload(phone: Int32($0), package: 0, at: start + 8 * 86_400) }
        let downloads = PhoneDownloads(sorted: all, phones: phones)
        var rates: [String: Double] = [:]
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // Thread counts interleaved within each repetition, so a noisy spell hits all of them alike.
        let threadCounts = Array(Set([1, 2, cores])).sorted()
        var best = [Int: Duration]()
        var checked = 0
        for _ in 0..<max(1, repeats) {
            for threads in threadCounts {
                let t = clock.measure {
                    checked = Matcher.match(index: index, store: world.encounters, phones: phones, start: start,
                                            downloads: downloads, threads: threads).encountersChecked
                }
                best[threads] = min(best[threads] ?? t, t)
            }
        }
        var encountersPerSecond: [Int: Double] = [:]
        for (threads, time) in best {
            encountersPerSecond[threads] = (Double(checked) / Machine.seconds(time)).rounded()
            rates["encounters_per_second_\(threads)_threads"] = encountersPerSecond[threads]
            rates["match_seconds_\(threads)_threads"] = (Machine.seconds(time) * 1e4).rounded() / 1e4
        }
        let openssl = try OpenSSLSpeed(executable: "openssl").aes128ECBBlocksPerSecond(bytesPerCall: 16, seconds: 2)
        let oneThread = encountersPerSecond[1] ?? .nan
        let twoThreads = encountersPerSecond[2] ?? oneThread
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
        if let loadBefore, let loadAfter = Machine.loadAverage {
            result["load_average"] = "\(loadBefore) at start, \(loadAfter) at end (1, 5, 15 min)"
        }
        return BenchmarkReport(result)
    }
}
