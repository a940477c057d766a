@testable import Detection
import Distribution
import EventEngine
import GAEN
import GSL
@testable import HealthBackend
@testable import Simulation
@testable import SimulationCore
import Testing
@testable import World

@Suite struct MatcherTests {
    let day: Int64 = 18_500   // a UTC day number
    var start: SimTime { day * SimDuration.day }

    func key(_ n: UInt64, day: Int64) -> TemporaryExposureKey {
        try! TemporaryExposureKey(keyData: Bytes16(word0: n, word1: n &* 7919), rollingStartIntervalNumber: ENIntervalNumber(unixTime: day * SimDuration.day))
    }

    func heard(_ tek: TemporaryExposureKey, interval offset: UInt32, tx: Int8) -> (RollingProximityIdentifier, UInt32) {
        let rpi = tek.rollingProximityIdentifierKey.identifier(at: tek.rollingStartIntervalNumber.advanced(by: Int(offset)))
        let aem = tek.associatedEncryptedMetadataKey.encrypt(BluetoothMetadata(transmitPowerDBm: tx), identifier: rpi)
        return (rpi, aem.rawValue)
    }

    func scan(_ second: UInt32) -> StoredScan { StoredScan(secondOfDay: second, typicalAttenuation: 55, minimumAttenuation: 50, secondsSinceLastScan: 300) }

    /// The same with the days' metadata and scans in memory or on disk.
    @Test(arguments: [false, true]) func matchesDecryptsTxPowerAndChecksValidity(spilled: Bool) throws {
        let a = key(1, day: day), other = key(2, day: day)
        var store = EncounterStore(retentionDays: 14, spillsToDisk: spilled)
        var d0 = EncounterBatch()
        let (rpi, aem) = heard(a, interval: 50, tx: -20)
        d0.add(receiver: 0, identifier: rpi, metadata: aem, scans: [scan(50 * 600 + 10), scan(50 * 600 + 310)])
        let (rpiOther, aemOther) = heard(other, interval: 60, tx: 5)
        d0.add(receiver: 1, identifier: rpiOther, metadata: aemOther, scans: [scan(60 * 600)])
        try store.add(EncounterDay(dayIndex: 0, phones: 3, batch: d0))
        var d2 = EncounterBatch()
        // Same RPI replayed two days later: outside the key's validity ± 2 h.
        d2.add(receiver: 2, identifier: rpi, metadata: aem, scans: [scan(50 * 600)])
        try store.add(EncounterDay(dayIndex: 2, phones: 3, batch: d2))

        let package = PublishedPackage(sequence: 0, name: "p0", kind: .daily, publishedAt: start + 3 * SimDuration.day,
                                       covers: start..<start + 1, keys: [PublishedKey(key: DiagnosisKey(a), uploader: 7, uploadedAt: start)], bytes: 0)
        let index = try DiagnosisKeyIndex(packages: [package, package], threads: 2)
        #expect(index.keys.count == 1 && index.identifierCount == 144 && index.packagesOfKey == [[0]])
        #expect(index.lookup(rpi)?.interval == a.rollingStartIntervalNumber.rawValue + 50)
        #expect(index.lookup(rpiOther) == nil)
        // A stored RPI (12 of its 16 bytes) finds the full RPI; changing the dropped bytes changes nothing,
        // changing a kept byte misses.
        let stored = try #require(index.lookup(StoredIdentifier(rpi)))
        #expect(stored.identifier == rpi && stored.interval == a.rollingStartIntervalNumber.rawValue + 50)
        var dropped = rpi.value, kept = rpi.value
        dropped.word1 ^= 0xffff_ffff_0000_0000
        kept.word1 ^= 1
        #expect(index.lookup(StoredIdentifier(RollingProximityIdentifier(dropped)))?.identifier == rpi)
        #expect(index.lookup(StoredIdentifier(RollingProximityIdentifier(kept))) == nil)
        let downloads = (0..<3).map { PackageDownload(phone: Int32($0), package: 0, at: start + 3 * SimDuration.day + Int64($0)) }
        let result = Matcher.match(index: index, store: store, phones: 3, start: start, downloads: PhoneDownloads(sorted: downloads, phones: 3), threads: 2)
        #expect(result.encountersChecked == 3)
        #expect(result.matches.count == 1)
        let m = try #require(result.matches.first)
        #expect(store.days.allSatisfy { $0.isSpilled == spilled })
        #expect(m.phone == 0 && m.transmitPower == -20 && m.dayIndex == 0 && m.scans.count == 2 && m.detectedAt == downloads[0].at)
        // Without the package downloaded there is no match.
        let none = Matcher.match(index: index, store: store, phones: 3, start: start, downloads: PhoneDownloads(sorted: [], phones: 3), threads: 1)
        #expect(none.matches.isEmpty && none.encountersChecked == 0)
    }
}

/// End to end on a real small simulation: index persons' keys as a backend would publish them.
@Suite(.serialized) struct DetectionEndToEndTests {
    static let config = {
        var c = SimulationConfig(name: "detection-test", seed: 4242, start: 18_536 * SimDuration.day, days: 4,
                                 population: PopulationParameters(size: 3000, appAdoption: 0.8), writeHourly: false, threads: 2)
        c.retainsGroundTruth = true
        return c
    }()
    /// What detection reads from a finished run.
    struct World: Sendable {
        let appPhoneOwners: [Int32]
        let encounters: EncounterStore
        let groundTruth: [GroundTruthDay]
    }

    static let simulation: World = {
        let s = try! Simulation(config: config)
        _ = try! s.run()
        return World(appPhoneOwners: s.appPhoneOwners, encounters: s.encounters, groundTruth: s.groundTruth)
    }()

    /// The first 15 app users with a close contact to another app user.
    static func indexPersons(_ sim: World) -> [Int32] {
        let owners = Set(sim.appPhoneOwners)
        var chosen: [Int32] = []
        for gt in sim.groundTruth {
            for (i, pair) in gt.pairs.enumerated() where gt.secondsWithin[i] >= gt.closeContactSeconds {
                let a = Int32(pair >> 32), b = Int32(pair & 0xffff_ffff)
                if owners.contains(a) && owners.contains(b) && !chosen.contains(a) && chosen.count < 15 { chosen.append(a) }
            }
        }
        return chosen
    }

    static func scenario(_ sim: World) -> (cases: [PositiveCase], package: PublishedPackage) {
        let persons = indexPersons(sim)
        let phoneOf = Dictionary(uniqueKeysWithValues: sim.appPhoneOwners.enumerated().map { ($0.element, $0.offset) })
        let startDay = SimClock.dayNumber(config.start)
        let stream = RandomStream(seed: config.seed, stream: "tek", generator: .taus2)
        var keys: [PublishedKey] = []
        var cases: [PositiveCase] = []
        for person in persons {
            let end = config.start + Int64(config.days) * SimDuration.day
            cases.append(PositiveCase(person: person, infectedAt: config.start - 3 * SimDuration.day, infectiousFromDay: startDay, symptomOnset: nil, testedAt: end - 6 * 3600, resultAt: end - 3600))
            for d in 0..<Int64(config.days) {
                let tek = PhoneFleet.temporaryExposureKey(seed: config.seed, phone: phoneOf[person]!, dayNumber: startDay + d, stream: stream)
                keys.append(PublishedKey(key: DiagnosisKey(tek, transmissionRiskLevel: 6, reportType: .confirmedTest), uploader: person, uploadedAt: end - 1800))
            }
        }
        let end = config.start + Int64(config.days) * SimDuration.day
        return (cases, PublishedPackage(sequence: 0, name: "test/0", kind: .batch, publishedAt: end - 600, covers: end - 3600..<end - 600, keys: keys, bytes: 0))
    }

    func detect(threads: Int, preset: DetectionPreset = .cwaV2) throws -> (ExposureDetection, DetectionReport) {
        let sim = Self.simulation
        let (cases, package) = Self.scenario(sim)
        let detection = ExposureDetection(parameters: DetectionParameters(preset: preset), start: Self.config.start,
                                          appPhoneOwners: sim.appPhoneOwners, threads: threads)
        let at = package.publishedAt + 60
        let downloads = (0..<sim.appPhoneOwners.count).map { PackageDownload(phone: Int32($0), package: 0, at: at + Int64($0 % 300)) }
        try detection.process(dayIndex: Self.config.days - 1, downloads: downloads, packages: [package], encounters: sim.encounters)
        return (detection, detection.finish(groundTruth: sim.groundTruth, cases: cases))
    }

    /// One file a day: an empty file fetched first uses the quota, so the keys wait a day and the
    /// same phones are notified at the next UTC midnight.
    @Test func keyFileRateLimitDefersDetectionToTheNextDay() throws {
        let sim = Self.simulation
        let (cases, package) = Self.scenario(sim)
        let (unlimited, _) = try detect(threads: 2)
        var parameters = DetectionParameters(preset: .cwaV2)
        parameters.keyFileRateLimit = KeyFileRateLimit(iosFilesPerDay: 1, androidFilesPerDay: 1)
        let phones = sim.appPhoneOwners.count
        let detection = ExposureDetection(parameters: parameters, start: Self.config.start, appPhoneOwners: sim.appPhoneOwners, threads: 2,
                                          appPhoneIsIOS: (0..<phones).map { $0 % 3 == 0 })
        let empty = PublishedPackage(sequence: 1, name: "test/1", kind: .batch, publishedAt: package.publishedAt, covers: package.covers,
                                     keys: [], bytes: 0)
        let at = package.publishedAt + 60
        let downloads = (0..<phones).flatMap { p in
            [PackageDownload(phone: Int32(p), package: 1, at: at), PackageDownload(phone: Int32(p), package: 0, at: at + 1)]
        }
        let last = Self.config.days - 1
        try detection.process(dayIndex: last, downloads: downloads, packages: [package, empty], encounters: sim.encounters)
        #expect(detection.notifications.isEmpty)
        #expect(detection.keyFiles.filesDeferred == Int64(phones) && detection.keyFiles.filesPending == Int64(phones))
        try detection.process(dayIndex: last + 1, downloads: [], packages: [package, empty], encounters: sim.encounters)
        let nextMidnight = Self.config.start + Int64(last + 1) * SimDuration.day
        #expect(!unlimited.notifications.isEmpty)
        #expect(Set(detection.notifications.keys) == Set(unlimited.notifications.keys))
        #expect(detection.notifications.values.allSatisfy { $0.at == nextMidnight })
        let summary = try #require(detection.finish(groundTruth: sim.groundTruth, cases: cases).summary.keyFileRateLimit)
        #expect(summary.filesChecked == 2 * Int64(phones) && summary.filesDeferred == Int64(phones) && summary.filesPendingAtEnd == 0)
    }

    /// A 4-hour detection period (Immuni): a detection one hour before the keys' package makes
    /// the package wait for the first check 4 h after it, on the next day; the same phones are
    /// notified then.
    @Test func detectionScheduleHoldsFilesUntilTheNextDueCheck() throws {
        let sim = Self.simulation
        let (cases, package) = Self.scenario(sim)
        let (unscheduled, _) = try detect(threads: 2)
        var parameters = DetectionParameters(preset: .cwaV2)
        parameters.schedule = DetectionSchedule(minIntervalSeconds: 4 * 3_600)
        let phones = sim.appPhoneOwners.count
        let detection = ExposureDetection(parameters: parameters, start: Self.config.start, appPhoneOwners: sim.appPhoneOwners, threads: 2)
        let empty = PublishedPackage(sequence: 1, name: "test/1", kind: .batch, publishedAt: package.publishedAt - 3_600,
                                     covers: package.covers, keys: [], bytes: 0)
        let at = package.publishedAt + 60
        let downloads = (0..<phones).flatMap { p in
            [PackageDownload(phone: Int32(p), package: 1, at: at - 3_600), PackageDownload(phone: Int32(p), package: 0, at: at)]
        }
        let last = Self.config.days - 1
        try detection.process(dayIndex: last, downloads: downloads, packages: [package, empty], encounters: sim.encounters)
        #expect(detection.notifications.isEmpty && detection.scheduled.filesPending == Int64(phones))
        // Hourly checks after the package: the one 4 h after the first detection is due.
        let checks = (1...4).flatMap { h in (0..<phones).map { CheckSession(phone: Int32($0), at: at + Int64(h) * 3_600) } }
        try detection.process(dayIndex: last + 1, downloads: [], checks: checks, packages: [package, empty], encounters: sim.encounters)
        #expect(!unscheduled.notifications.isEmpty)
        #expect(Set(detection.notifications.keys) == Set(unscheduled.notifications.keys))
        #expect(detection.notifications.values.allSatisfy { $0.at == at + 3 * 3_600 })
        let summary = try #require(detection.finish(groundTruth: sim.groundTruth, cases: cases).summary.schedule)
        #expect(summary.detections == 2 * Int64(phones) && summary.filesHeld == Int64(phones) && summary.filesPendingAtEnd == 0)
    }

    @Test func closeContactsAreNotifiedFarOnesMostlyNot() throws {
        let sim = Self.simulation
        let (detection, report) = try detect(threads: 2)
        let persons = Set(Self.indexPersons(sim))
        let phoneOf = Dictionary(uniqueKeysWithValues: sim.appPhoneOwners.enumerated().map { ($0.element, Int32($0.offset)) })
        // Contacts of index persons: close (≥ 15 min within 2 m) versus never within 2 m for long.
        var close = Set<Int32>(), far = Set<Int32>()
        for gt in sim.groundTruth {
            for (i, pair) in gt.pairs.enumerated() {
                let a = Int32(pair >> 32), b = Int32(pair & 0xffff_ffff)
                for (x, y) in [(a, b), (b, a)] where persons.contains(x) && !persons.contains(y) {
                    guard let p = phoneOf[y] else { continue }
                    if gt.secondsWithin[i] >= gt.closeContactSeconds { close.insert(p) } else if gt.secondsWithin[i] < 60 { far.insert(p) }
                }
            }
        }
        far.subtract(close)
        let notified = Set(detection.notifications.keys)
        #expect(close.count >= 20)
        let closeRate = Double(close.intersection(notified).count) / Double(close.count)
        let farRate = far.isEmpty ? 0 : Double(far.intersection(notified).count) / Double(far.count)
        #expect(closeRate > 0.5, "close \(closeRate)")
        #expect(farRate < closeRate / 2, "far \(farRate) close \(closeRate)")
        // Every notified phone heard an index person (nothing else was published).
        #expect(notified.allSatisfy { detection.windows[$0]!.allSatisfy { persons.contains($0.uploader) } })
        // Decrypted Tx power is a real device value (iPhone reference or an Android calibration value).
        #expect(detection.windows.values.joined().allSatisfy { (-46...8).contains(Int($0.transmitPower)) })
        let s = report.summary
        #expect(s.notified == notified.count)
        #expect(s.truePositives > 0)
        // FN causes partition the false negatives.
        let causes = s.falseNegativeCauses
        #expect(causes.entries.map(\.name) == MissCause.allCases.map(\.name))
        #expect(causes.entries.reduce(0) { $0 + $1.value } == s.falseNegatives)
        // All keys were published and downloaded: those two causes cannot occur.
        #expect(causes[MissCause.noUpload.name] == 0 && causes[MissCause.notYetDownloaded.name] == 0)
        #expect(report.tables.map(\.name) == ["notifications_daily.csv", "notifications_per_case.csv", "exposures.csv", "latency.csv", "thresholds.csv"])
        let grid = report.tables.last!.table
        #expect(grid.rows.count == DetectionParameters.defaultGridAttenuations.count * DetectionParameters.defaultGridMinutes.count)
        // Looser thresholds never notify fewer phones.
        let notifiedAt = Dictionary(uniqueKeysWithValues: grid.rows.map { (($0[0], $0[1]), $0[2]) }.map { ("\($0.0.0)-\($0.0.1)", $0.1) })
        #expect(notifiedAt["\(ResultTable.Cell.integer(80))-\(ResultTable.Cell.integer(5))"]!.asInt >= notifiedAt["\(ResultTable.Cell.integer(45))-\(ResultTable.Cell.integer(30))"]!.asInt)
    }

    @Test func identicalForAnyThreadCount() throws {
        let one = try detect(threads: 1, preset: .immuni).1
        let three = try detect(threads: 3, preset: .immuni).1
        #expect(one.summary == three.summary)
        #expect(one.tables == three.tables)
    }

    @Test func laterDownloadsDoNotDoubleCount() throws {
        let sim = Self.simulation
        let (detection, _) = try detect(threads: 2)
        let before = detection.matchedEncounters
        let (cases, package) = Self.scenario(sim)
        _ = cases
        let again = (0..<sim.appPhoneOwners.count).map { PackageDownload(phone: Int32($0), package: 0, at: package.publishedAt + 7200) }
        try detection.process(dayIndex: Self.config.days - 1, downloads: again, packages: [package], encounters: sim.encounters)
        #expect(detection.matchedEncounters == before)
    }
}

extension ResultTable.Cell {
    var asInt: Int64 { if case .integer(let n) = self { n } else { -1 } }
}

@Suite struct DetectionRegressionTests {
    static let world: DetectionStudy.World = {
        var config = SimulationConfig(name: "regress-test", seed: 99, start: 18_536 * SimDuration.day, days: 4,
                                      population: PopulationParameters(size: 3000, appAdoption: 0.8), writeHourly: false, threads: 2)
        config.retainsGroundTruth = true
        let s = try! Simulation(config: config)
        _ = try! s.run()
        return s.detectionWorld
    }()

    func counts(_ parameters: DetectionParameters, studySeed: UInt64) throws -> DetectionCounts {
        let report = try DetectionStudy(indexShare: 0.05, seed: studySeed).run(Self.world, parameters: parameters, threads: 2)
        return DetectionCounts(summary: report.summary)
    }

    @Test func worseAttenuationThresholdIsFlaggedRerunIsNot() throws {
        let base = try counts(.default, studySeed: 1)
        #expect(base.notified > 50)
        // Re-running the baseline configuration: no regression.
        let rerun = try counts(.default, studySeed: 1)
        #expect(rerun == base)
        #expect(!DetectionRegression.compare(baseline: base, now: rerun, alpha: 0.01).contains { $0.verdict == .regression })
        #expect(DetectionRegression.compare(baseline: base, now: base, alpha: 0.01).allSatisfy { $0.verdict == .ok })
        // Every attenuation threshold 15 dB higher: far contacts count, false positives rise.
        var worse = DetectionParameters.default
        guard case .v2(var c) = worse.model else { Issue.record("default is not v2"); return }
        c.attenuationBucketThresholds = c.attenuationBucketThresholds.map { $0 + 15 }
        worse.model = .v2(c)
        let flagged = DetectionRegression.compare(baseline: base, now: try counts(worse, studySeed: 1), alpha: 0.01)
        #expect(flagged.first { $0.name == "false_positive_rate" }?.verdict == .regression, "\(flagged)")
    }

    @Test func twoProportionVerdicts() {
        #expect(RateComparison.compare("x", baseline: (10, 1000), now: (40, 1000), alpha: 0.01).verdict == .regression)
        #expect(RateComparison.compare("x", baseline: (40, 1000), now: (10, 1000), alpha: 0.01).verdict == .improved)
        #expect(RateComparison.compare("x", baseline: (10, 1000), now: (12, 1000), alpha: 0.01).verdict == .ok)
        #expect(RateComparison.compare("x", baseline: (0, 0), now: (1, 10), alpha: 0.01).verdict == .noData)
    }
}
