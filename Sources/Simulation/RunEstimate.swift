import Analytics
import Foundation
import P6Phones
import SimulationCore

/// What a run will need, from its size alone, before it starts: peak memory, temporary disk
/// space (in `TMPDIR`) and wall time.
///
/// The coefficients are the per-store figures `ensim bench population` measures (docs/benchmarks.md,
/// "National scale") at the default contact rates; a scenario with many more contacts per person
/// needs proportionally more for its encounters. The estimate is meant to be right within ~30%,
/// enough to refuse a run that cannot fit rather than be killed by the kernel hours later.
public struct RunEstimate: Sendable, Equatable {
    public var people: Int
    public var appPhones: Int
    public var peakBytes: Int64
    /// Temporary files at their largest: the encounters' metadata and scans, and the close contacts.
    public var diskBytes: Int64
    public var seconds: Double
    /// Of `peakBytes`: what P6's scaled replay adds (the relayed receptions and the co-location
    /// matches they make); it grows with the square of the relay devices per app phone.
    public var replayBytes: Int64 = 0
    /// P6 scaled replay's relay devices per app phone on a day of relaying (0 without replay).
    public var replayRelaysPerPhone = 0.0

    /// Measured at 1,000,000 people × 28 days with 40% app users: 1.24 GB peak since a day's
    /// encounter metadata and scans go to disk (`ensim bench population`, docs/benchmarks.md).
    public enum Coefficients {
        /// Encounters per app phone and day kept (RPI, metadata, scans) when 40% of people run the
        /// app; an app phone meets other app phones in proportion to adoption.
        public static let encounterBytesPerAppPhoneDay = 250.0
        public static let encounterAdoption = 0.4
        /// Of which stay in memory once the day is stored: its RPIs (12 B each) and its row starts (4 B
        /// per app phone); the metadata and scans (129 B) are on disk.
        public static let encounterMemoryBytesPerAppPhoneDay = 121.0
        public static let rowStartBytesPerAppPhoneDay = 4.0
        /// Days of stored encounters at the peak: GAEN's 14 less the day leaving (dropped first).
        public static let storedEncounterDaysAtPeak = 13.0
        /// Whole days of encounters in memory at the peak, while the day is built: its shards'
        /// batches (already compact: ~1.15 stored days), the day itself and the merge's order (~0.5 day).
        public static let buildingEncounterDaysAtPeak = 2.65
        /// Close contacts on disk per person-day (pairs with an app user, 16 B each).
        public static let closeContactDiskBytesPerPersonDay = 15.0
        /// Per person: network, population, the day's close contacts in memory and the day's raw
        /// contacts while they are aggregated.
        public static let bytesPerPerson = 160.0
        /// Per app phone: the day's keys (60 B) and the day's downloads (~24 files × 16 B), which are
        /// freed after detection, so only partly at the peak of the next day's contacts.
        public static let bytesPerAppPhone = 444.0
        /// Per download client (state and counters).
        public static let bytesPerClient = 24.0
        /// Every pair who met, 21 days (kept only when P6 runs).
        public static let allPairsBytesPerPersonDay = 64.0
        /// The epidemic's per-person state (infection times, infector, confinement, onset: 54 B of
        /// arrays) and manual tracing's named contacts: 3.4 a person-day in `Scenarios/epidemic-tracing.yaml`,
        /// 8 B each, kept 14 days.
        public static let epidemicBytesPerPerson = 54.0
        public static let tracingBytesPerPerson = 3.4 * 8 * 14
        /// Detection's key index on its busiest day: every RPI of the keys the phones fetched that
        /// day (16 B, its key's slot, ≥ 2 hash slots: ~32 B), 14 keys an upload, and about 8 days of
        /// the national uploads (phones catching up after days offline fetch older files):
        /// 159 MB at 300 national uploads a day in `Scenarios/epidemic-national-sample.yaml` (heaptrack).
        public static let keyIndexBytesPerNationalUploadPerDay = 14.0 * 144 * 32 * 8
        /// What the national uploads leave for the whole run (published keys, packages), per upload a
        /// day and day of the run, and the time they take, serial (building each day's key index):
        /// `Scenarios/year.yaml` with 300 and 1,000 national uploads a day, 28 to 365 days (docs/benchmarks.md).
        public static let bytesPerNationalUploadPerDayOfRun = 1_200.0
        public static let secondsPerNationalUploadPerDay = 255e-6
        /// Runtime, buffers, tables.
        public static let fixedBytes = 60.0e6
        /// Allocator overhead and fragmentation over the stores' own bytes.
        public static let overhead = 1.05
        /// Wall seconds per person-day on one thread of the benchmark machine: contacts and what
        /// does not depend on the app, plus the radio and encounters of app-pair contacts (∝ adoption²).
        /// Fitted to two runs on 2 threads: 1 M × 28 at 40% adoption (80.2 s) and
        /// national-10m.yaml at 16.3% (5 min 55 s); docs/benchmarks.md.
        public static let secondsPerPersonDay = 1.55e-6
        public static let secondsPerPersonDayPerAdoptionSquared = 20.0e-6
        /// Each extra thread adds this share of one (memory bandwidth, the serial end of day).
        public static let extraThreadEfficiency = 0.66
        /// One thread's seconds per CDN client check, for the clients beyond the app phones
        /// (`distribution.clients`; the app phones' checks are in the time per person-day): the 1 M
        /// benchmark's distribution phase, 13.1 s on 2 threads for 400,000 clients × 28 days × 24 checks.
        public static let secondsPerClientCheck = 81e-9
        /// Immuni's analytics (`analytics.enabled`) per app phone, and again per value of its p_OWOE
        /// sweep (one more model each): its state, about as large after 30 days as after 61; and one
        /// thread's seconds per app phone-day. Simulated detections feed ~18.5 runs a phone-day,
        /// synthetic ones one per 4 h: immuni-analytics-simulated.yaml at 20,000 and 40,000 people
        /// and immuni-analytics.yaml, each with and without analytics and its sweep (docs/benchmarks.md).
        public static func analytics(_ source: AnalyticsParameters.DetectionSource)
            -> (bytesPerAppPhone: Double, bytesPerSweepValue: Double, secondsPerAppPhoneDay: Double, secondsPerSweepValue: Double) {
            switch source {
            case .simulated: (3_000, 2_400, 10e-6, 3e-6)
            case .synthetic: (1_600, 1_400, 3.7e-6, 1.4e-6)
            }
        }
        /// P6 beside GAEN (`p6.enabled`), per app phone and day: its Rx traces, kept 14 days, and what
        /// grows with the run (disclosures, matches, notifications). Measured as the difference with P6
        /// off: Scenarios/p6-vs-gaen.yaml at 20,000 people for 14 and 28 days, and 50,000 for 14 days.
        public static let p6RetainedBytesPerAppPhoneDay = 1_000.0
        public static let p6BytesPerAppPhoneDay = 750.0
        public static let p6SecondsPerAppPhoneDay = 250e-6
        /// P6 scaled replay, per app phone and day of relaying, with ρ relay devices per app phone:
        /// (a·ρ + b·ρ²) bytes. Fitted to Scenarios/p6-replay-clean.yaml run 2 days (2, 6.7, 13 and
        /// 20 relays per phone: 10, 90, 330 and 740 kB per phone; 764 kB with twice the phones);
        /// 14-day runs with 300 and 1,000 attacks came within −10% and +17% (docs/model/p6.md).
        public static let replayBytesPerRelay = 1_620.0
        public static let replayBytesPerRelaySquared = 1_764.0
        /// One thread's seconds per app phone, relay device per phone and day of relaying (the same runs).
        public static let replaySecondsPerRelay = 615e-6
    }

    public init(config: SimulationConfig) {
        typealias C = Coefficients
        let p = config.population
        let adoption = p.adoptionByAge.map { byAge in zip(byAge, p.ageShares).reduce(0) { $0 + $1.0 * $1.1 } / max(1e-12, p.ageShares.reduce(0, +)) }
            ?? p.appAdoption
        people = p.size
        appPhones = Int((Double(p.size) * adoption).rounded())
        let days = Double(config.days)
        let encounterBytes = C.encounterBytesPerAppPhoneDay * adoption / C.encounterAdoption
        let rpiBytes = (C.encounterMemoryBytesPerAppPhoneDay - C.rowStartBytesPerAppPhoneDay) * adoption / C.encounterAdoption
        var bytes = Double(appPhones) * (min(max(days - 1, 0), C.storedEncounterDaysAtPeak) * (rpiBytes + C.rowStartBytesPerAppPhoneDay)
            + min(days, 1) * C.buildingEncounterDaysAtPeak * encounterBytes)
        bytes += Double(people) * C.bytesPerPerson + Double(appPhones) * C.bytesPerAppPhone
        bytes += Double(max(config.distribution.clients, appPhones)) * C.bytesPerClient
        bytes += config.health.nationalUploadsPerDay * (C.keyIndexBytesPerNationalUploadPerDay + C.bytesPerNationalUploadPerDayOfRun * days)
        let analytics = config.analytics, points = Double(analytics.sweepPWithoutExposure.count)
        let analyticsCost = C.analytics(analytics.detections)
        if analytics.enabled { bytes += Double(appPhones) * (analyticsCost.bytesPerAppPhone + points * analyticsCost.bytesPerSweepValue) }
        if config.p6.enabled {
            bytes += Double(appPhones) * (C.p6RetainedBytesPerAppPhoneDay * min(days, 14) + C.p6BytesPerAppPhoneDay * days)
        }
        if config.p6.enabled || config.retainsGroundTruth { bytes += Double(people) * C.allPairsBytesPerPersonDay * min(days, 21) }
        let epidemicBytes = config.epidemic.enabled
            ? Double(people) * (C.epidemicBytesPerPerson + (config.epidemic.manualTracing.enabled ? C.tracingBytesPerPerson : 0)) : 0
        bytes += epidemicBytes
        // The run is built (population, network, clients, epidemic state) before its counterfactual
        // runs, and stays in memory beside it: Scenarios/epidemic-national-sample.yaml peaked at
        // 417 MB without the counterfactual and 597 MB with it.
        if config.runsCounterfactual {
            bytes += Double(people) * C.bytesPerPerson + Double(max(config.distribution.clients, appPhones)) * C.bytesPerClient + epidemicBytes
        }
        let replay = Self.replay(config, appPhones: appPhones)
        replayRelaysPerPhone = replay.density
        replayBytes = Int64(Double(appPhones) * replay.days * (C.replayBytesPerRelay * replay.density
            + C.replayBytesPerRelaySquared * replay.density * replay.density) * C.overhead)
        peakBytes = Int64(C.fixedBytes + bytes * C.overhead) + replayBytes
        let spilledEncounterBytes = encounterBytes - rpiBytes - C.rowStartBytesPerAppPhoneDay
        diskBytes = Int64(Double(appPhones) * spilledEncounterBytes * min(days, 14) + Double(people) * C.closeContactDiskBytesPerPersonDay * days)
        let threads = Double(max(1, min(config.threads, ProcessInfo.processInfo.activeProcessorCount)))
        let perPersonDay = C.secondsPerPersonDay + C.secondsPerPersonDayPerAdoptionSquared * adoption * adoption
        var featureSeconds = Double(appPhones) * replay.days * replay.density * C.replaySecondsPerRelay
        if config.p6.enabled { featureSeconds += Double(appPhones) * days * C.p6SecondsPerAppPhoneDay }
        if analytics.enabled {
            featureSeconds += Double(appPhones) * days * (analyticsCost.secondsPerAppPhoneDay + points * analyticsCost.secondsPerSweepValue)
        }
        let checksPerDay = 86_400 / Double(max(1, config.distribution.checkIntervalSeconds))
        let clientSeconds = Double(max(0, config.distribution.clients - appPhones)) * days * checksPerDay * C.secondsPerClientCheck
        seconds = (Double(people) * days * perPersonDay + featureSeconds + clientSeconds) / (1 + C.extraThreadEfficiency * (threads - 1))
            + config.health.nationalUploadsPerDay * days * C.secondsPerNationalUploadPerDay
        // The counterfactual is a second run of the same size, before the run itself.
        if config.runsCounterfactual { seconds *= 2 }
    }

    /// P6 scaled replay's relay devices per app phone on a day of relaying, and the days with relaying.
    /// Attacks start on one of `P6ReplayAttack.startDays` and relay `replay.days` days, so in a run
    /// not much longer than an attack they all relay at once.
    static func replay(_ config: SimulationConfig, appPhones: Int) -> (density: Double, days: Double) {
        let a = config.p6.attacks
        guard config.p6.enabled, a.replayAttacks > 0, appPhones > 1 else { return (0, 0) }
        let startDays = P6ReplayAttack.startDays(runDays: config.days, replayDays: a.replayDays)
        let concurrent = Double(a.replayAttacks) * min(1, Double(a.replayDays) / Double(startDays))
        let relays = Double(min(a.replayRelays, appPhones - 1))
        return (concurrent * relays / Double(appPhones), Double(min(config.days, startDays + a.replayDays - 1)))
    }

    /// The folder the run's temporary files go to (`TMPDIR`): where `SpillFile` makes them.
    public static var temporaryFolder: String { SpillFile.folder }

    /// Free space in `temporaryFolder`; nil where it cannot be read.
    public static func availableDiskBytes() -> Int64? {
        guard let free = (try? FileManager.default.attributesOfFileSystem(forPath: temporaryFolder))?[.systemFreeSize] as? NSNumber else { return nil }
        return free.int64Value
    }

    /// Memory the kernel says can be given to a new process (MemAvailable), or the cgroup's
    /// remaining limit when lower; nil where neither can be read.
    public static func availableBytes() -> Int64? {
        var available: Int64?
        if let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
           let kb = line.split(separator: " ").dropFirst().first.flatMap({ Int64($0) }) {
            available = kb * 1024
        }
        if let limit = Self.readInteger("/sys/fs/cgroup/memory.max"), let used = Self.readInteger("/sys/fs/cgroup/memory.current") {
            available = min(available ?? .max, max(0, limit - used))
        }
        return available
    }

    private static func readInteger(_ path: String) -> Int64? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int64(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// "12.3 GB" / "850 MB".
    public static func bytesText(_ bytes: Int64) -> String { bytesText(bytes, decimals: 1) }

    /// Two amounts set against each other in one message ("needs … but … is available"), with as many
    /// decimals as it takes for different amounts to read differently (up to three).
    public static func bytesTexts(_ a: Int64, _ b: Int64) -> (String, String) {
        var decimals = 1
        while decimals < 3, a != b, bytesText(a, decimals: decimals) == bytesText(b, decimals: decimals) { decimals += 1 }
        return (bytesText(a, decimals: decimals), bytesText(b, decimals: decimals))
    }

    /// GB with `decimals` decimals, or MB with one fewer.
    private static func bytesText(_ bytes: Int64, decimals: Int) -> String {
        bytes >= 1_000_000_000 ? String(format: "%.\(decimals)f GB", Double(bytes) / 1e9)
            : String(format: "%.\(decimals - 1)f MB", Double(bytes) / 1e6)
    }

    /// "3 min" / "2.5 h" / "40 s".
    public static func durationText(_ seconds: Double) -> String {
        if seconds < 90 { return String(format: "%.0f s", seconds) }
        if seconds < 5400 { return String(format: "%.0f min", seconds / 60) }
        return String(format: "%.1f h", seconds / 3600)
    }

    /// One line for people.
    public var text: String {
        "estimated peak memory \(Self.bytesText(peakBytes)) and about \(Self.durationText(seconds)), "
            + "with \(Self.bytesText(diskBytes)) of temporary files in \(Self.temporaryFolder) "
            + "(\(people) people, \(appPhones) app phones)"
    }
}
