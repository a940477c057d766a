import Distribution
import EventEngine
import GAEN
import GSL
import HealthBackend
import SimulationCore
import World

/// Exposure detection for every app phone, run once per simulated day after the day's
/// downloads are known: match the new packages' keys against retained encounters, score
/// each phone's exposure days with the risk model, notify once per phone (first notification).
public final class ExposureDetection {
    public let parameters: DetectionParameters
    package let start: SimTime
    /// Person of each app phone (PhoneFleet order).
    package let owners: [Int32]
    package let threads: Int

    /// One matched RPI (a GAEN ExposureWindow) as the phone keeps it.
    package struct Window {
        package var dayIndex: Int32
        package var key: DiagnosisKey
        package var uploader: Int32
        package var detectedAt: SimTime
        package var transmitPower: Int8
        package var scans: [ScoredScan]
    }

    package struct Notification {
        package var at: SimTime
        package var exposureDayIndex: Int32
        package var value: Double
        package var uploaders: [Int32]
    }

    /// Each phone's matched windows, in detection order.
    package var windows: [Int32: [Window]] = [:]
    private var seenWindows: Set<UInt64> = []
    package private(set) var notifications: [Int32: Notification] = [:]
    /// Highest package sequence each phone downloaded (phones fetch packages in order).
    private var maxDownloaded: [Int32]
    /// (uploader, UTC day number of the key) → first package that published it.
    private var firstPublication: [UInt64: Int] = [:]
    /// Packages already read: a prefix of the run's sequence, or a set (studies' packages in any order).
    private var packagesSeen = 0
    private var seenPackages: Set<Int> = []

    public private(set) var encountersChecked: Int64 = 0
    public private(set) var identifiersDerived: Int64 = 0
    public private(set) var matchedEncounters: Int64 = 0
    /// Each app phone's clock offset in seconds (`radio.clock_skew`); empty: exact clocks.
    package var clockOffsets: [Int32] = []
    /// RPIs of fetched keys heard outside their key's validity ± GAEN's drift tolerance.
    package private(set) var outsideDriftTolerance: Int64 = 0
    /// Files waiting for the OS's daily quota (`parameters.keyFileRateLimit`).
    package private(set) var keyFiles: KeyFileQueue
    /// Files waiting for the phone's next scheduled detection (`parameters.schedule`).
    package private(set) var scheduled: DetectionScheduleQueue

    /// - Parameter appPhoneIsIOS: OS of each app phone, for the per-platform key-file limit and
    ///   detection schedule (empty: all count as Android; only read when a limit or schedule is set).
    public init(parameters: DetectionParameters, start: SimTime, appPhoneOwners: [Int32], threads: Int, appPhoneIsIOS: [Bool] = []) {
        self.parameters = parameters
        self.start = start
        owners = appPhoneOwners
        self.threads = threads
        maxDownloaded = Array(repeating: -1, count: appPhoneOwners.count)
        keyFiles = KeyFileQueue(limit: parameters.keyFileRateLimit, isIOS: appPhoneIsIOS)
        scheduled = DetectionScheduleQueue(schedule: parameters.schedule, isIOS: appPhoneIsIOS)
    }

    package var startDayNumber: Int64 { SimClock.dayNumber(start) }

    /// Runs the day's detections. `packages`: every package published so far, in sequence order
    /// as a run publishes them (only those not seen before are read, so a day costs the same in a
    /// year-long run), or any set of packages in any order (studies); `downloads`: the day's downloads;
    /// `checks`: the day's successful checks of app phones (read only with a detection schedule).
    public func process<Packages: RandomAccessCollection<PublishedPackage>>(
        dayIndex: Int, downloads: [PackageDownload], checks: [CheckSession] = [], packages: Packages,
        encounters: EncounterStore) throws where Packages.Index == Int {
        let inSequence = (packages.first.map { $0.sequence == packages.startIndex } ?? true)
            && (packages.last.map { $0.sequence == packages.endIndex - 1 } ?? true)
        for p in inSequence ? packages[min(packagesSeen, packages.endIndex)...] : packages[...] {
            guard inSequence || seenPackages.insert(p.sequence).inserted else { continue }
            for k in p.keys where k.uploader >= 0 {
                let day = k.key.temporaryExposureKey.rollingStartIntervalNumber.unixTime / SimDuration.day
                let id = UInt64(UInt32(k.uploader)) << 32 | UInt64(day)
                firstPublication[id] = min(firstPublication[id] ?? Int.max, p.sequence)
            }
        }
        if inSequence { packagesSeen = max(packagesSeen, packages.endIndex) }
        // The OS checks at most its daily quota of files; the rest wait for a later day (and count
        // as not yet downloaded for the misses: detection has not seen them).
        // A file fetched between two scheduled detections waits for the next (re-timed to it).
        let detected = scheduled.release(downloads, checks: checks)
        let sorted = keyFiles.admit(detected, midnight: start + Int64(dayIndex) * SimDuration.day, threads: threads)
        if sorted.isEmpty { return }
        let downloads = PhoneDownloads(sorted: sorted, phones: owners.count, threads: threads)
        let sequences = noteDownloads(downloads)
        let fetched: [PublishedPackage]
        if inSequence {
            fetched = sequences.compactMap { packages.indices.contains($0) ? packages[$0] : nil }
        } else {
            let bySequence = Dictionary(packages.map { ($0.sequence, $0) }, uniquingKeysWith: { a, _ in a })
            fetched = sequences.compactMap { bySequence[$0] }
        }
        let index = try DiagnosisKeyIndex(packages: fetched, threads: threads)
        identifiersDerived += Int64(index.identifierCount)
        let result = Matcher.match(index: index, store: encounters, phones: owners.count, start: start,
                                   downloads: downloads, threads: threads, clockOffsets: clockOffsets)
        encountersChecked += Int64(result.encountersChecked)
        outsideDriftTolerance += Int64(result.outsideDriftTolerance)
        absorb(result.matches, index: index)
    }

    /// Raises each phone's highest downloaded package and returns the packages fetched, in
    /// sequence order; shards of phones in parallel, each flagging what it saw (a few hundred
    /// packages, not a set of the day's millions of downloads).
    private func noteDownloads(_ downloads: PhoneDownloads) -> [Int] {
        let layout = ShardLayout(count: owners.count, threads: threads, shardsPerThread: 4)
        let flags = ShardResults<[Bool]>(count: layout.shards)
        // One access to the stored array for the whole loop: checking exclusivity per download was
        // a quarter of the day's detection.
        maxDownloaded.withUnsafeMutableBufferPointer { buffer in
            let highest = SharedBuffer(base: buffer)
            layout.forEach(threads: threads) { phones in
                var fetched: [Bool] = []
                for i in downloads.rowStart[phones.lowerBound]..<downloads.rowStart[phones.upperBound] {
                    let d = downloads.all[i]
                    highest.base[Int(d.phone)] = max(highest.base[Int(d.phone)], Int32(d.package))
                    if d.package >= fetched.count { fetched += repeatElement(false, count: d.package + 1 - fetched.count) }
                    fetched[d.package] = true
                }
                flags.set(layout.shard(of: phones), fetched)
            }
        }
        var fetched: [Bool] = []
        for f in flags.all {
            if f.count > fetched.count { fetched += repeatElement(false, count: f.count - fetched.count) }
            for (sequence, seen) in f.enumerated() where seen { fetched[sequence] = true }
        }
        return fetched.indices.filter { fetched[$0] }
    }

    /// Adds new windows phone by phone (matches are in phone order) and notifies at the
    /// first detection after which an exposure day reaches the threshold.
    private func absorb(_ matches: [EncounterMatch], index: DiagnosisKeyIndex) {
        var i = 0
        while i < matches.count {
            let phone = matches[i].phone
            var fresh: [Window] = []
            while i < matches.count && matches[i].phone == phone {
                let m = matches[i]
                i += 1
                let id = UInt64(UInt32(phone)) << 40 | UInt64(UInt32(m.dayIndex)) << 24 | UInt64(UInt32(m.encounter))
                guard seenWindows.insert(id).inserted else { continue }
                let published = index.keys[Int(m.key)]
                fresh.append(Window(dayIndex: m.dayIndex, key: published.key, uploader: published.uploader,
                                    detectedAt: m.detectedAt, transmitPower: m.transmitPower, scans: m.scans))
            }
            if fresh.isEmpty { continue }
            matchedEncounters += Int64(fresh.count)
            fresh.sort { $0.detectedAt < $1.detectedAt }
            var all = windows[phone] ?? []
            var j = 0
            while j < fresh.count {
                let at = fresh[j].detectedAt
                while j < fresh.count && fresh[j].detectedAt == at { all.append(fresh[j]); j += 1 }
                if notifications[phone] == nil, let n = firstNotifyingDay(all, asOf: at) { notifications[phone] = n }
            }
            windows[phone] = all
        }
    }

    /// The risk model's inputs for one exposure day: one exposure per key (v1) or per window (v2).
    package func exposures(_ windows: [Window], asOf: SimTime, attenuationOverride: Int? = nil) -> [KeyExposure] {
        let detectionDay = SimClock.dayNumber(asOf)
        func exposure(_ w: Window, scans: [ScoredScan]) -> KeyExposure {
            KeyExposure(scans: attenuationOverride.map { a in scans.map { ScoredScan(typicalAttenuation: a, seconds: $0.seconds) } } ?? scans,
                        daysSinceExposure: Int(detectionDay - startDayNumber - Int64(w.dayIndex)),
                        transmissionRiskLevel: w.key.transmissionRiskLevel,
                        reportType: w.key.reportType.map { Int($0.rawValue) },
                        daysSinceOnset: w.key.daysSinceOnsetOfSymptoms)
        }
        switch parameters.model {
        case .v2:
            return windows.map { exposure($0, scans: $0.scans) }
        case .v1:
            return Self.byKey(windows).map { ws in exposure(ws[0], scans: ws.flatMap(\.scans)) }
        }
    }

    /// Windows grouped by key (GAEN v1 scores one exposure per key), keys in order of first window.
    package static func byKey(_ windows: [Window]) -> [[Window]] {
        var order: [Bytes16] = []
        var byKey: [Bytes16: [Window]] = [:]
        for w in windows {
            let k = w.key.temporaryExposureKey.keyData
            if byKey[k] == nil { order.append(k) }
            byKey[k, default: []].append(w)
        }
        return order.map { byKey[$0]! }
    }

    private func firstNotifyingDay(_ all: [Window], asOf: SimTime) -> Notification? {
        var best: Notification? = nil
        for (day, ws) in Self.byDay(all) {
            let (value, notify) = parameters.model.evaluateDay(exposures(ws, asOf: asOf))
            if notify, value > (best?.value ?? -1) {
                var uploaders: [Int32] = []
                for w in ws where !uploaders.contains(w.uploader) { uploaders.append(w.uploader) }
                best = Notification(at: asOf, exposureDayIndex: day, value: value, uploaders: uploaders)
            }
        }
        return best
    }

    /// Windows grouped by exposure day, days ascending, windows in arrival order.
    package static func byDay(_ all: [Window]) -> [(Int32, [Window])] {
        Dictionary(grouping: all, by: \.dayIndex).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    package func maxDownloadedPackage(_ phone: Int) -> Int { Int(maxDownloaded[phone]) }
    package func firstPublication(uploader: Int32, dayNumber: Int64) -> Int? { firstPublication[UInt64(UInt32(uploader)) << 32 | UInt64(dayNumber)] }
}
