import EventEngine
import HealthBackend

/// The OS's daily limit on key files an app may hand to exposure detection, per platform.
/// 0 means no limit (the model before this option: every downloaded file is checked at once).
///
/// Sources: Android's `provideDiagnosisKeys` was limited to 20 calls a day (corona-warn-app/
/// cwa-documentation#466, June 2020); later frameworks count files, not calls: 15 a day on iOS,
/// 20 on Android (issue 19's figures; Apple's ENManager docs only say the limit exists).
public struct KeyFileRateLimit: Sendable, Equatable {
    public var iosFilesPerDay = 0
    public var androidFilesPerDay = 0

    public init(iosFilesPerDay: Int = 0, androidFilesPerDay: Int = 0) {
        self.iosFilesPerDay = iosFilesPerDay
        self.androidFilesPerDay = androidFilesPerDay
    }

    public var isActive: Bool { iosFilesPerDay > 0 || androidFilesPerDay > 0 }

    /// Files a phone may check per UTC day; nil: no limit.
    public func filesPerDay(isIOS: Bool) -> Int? {
        let n = isIOS ? iosFilesPerDay : androidFilesPerDay
        return n > 0 ? n : nil
    }
}

/// What the rate limit did over a run (summary.json `detection.key_file_rate_limit`, present only
/// when a limit is set, so runs without one keep their outputs).
public struct KeyFileRateLimitSummary: Equatable, Sendable, Encodable {
    public var iosFilesPerDay: Int
    public var androidFilesPerDay: Int
    /// Files checked by exposure detection.
    public var filesChecked: Int64
    /// Files whose check the limit pushed to a later day (each file once).
    public var filesDeferred: Int64
    /// Σ over deferred files of the days they waited (a file waiting two days counts 2).
    public var fileDaysDeferred: Int64
    /// Files downloaded but still waiting when the run ended.
    public var filesPendingAtEnd: Int64

    package enum CodingKeys: String, CodingKey {
        case iosFilesPerDay = "ios_files_per_day", androidFilesPerDay = "android_files_per_day"
        case filesChecked = "files_checked", filesDeferred = "files_deferred", fileDaysDeferred = "file_days_deferred"
        case filesPendingAtEnd = "files_pending_at_end"
    }
}

/// Per phone, the downloaded key files waiting for the next day's quota.
///
/// Each UTC day a phone checks at most its platform's quota of files: first those left over from
/// earlier days (oldest first), then the day's downloads in download order. A file left over is
/// checked at the UTC midnight its day's quota opens (the earliest the OS allows; a real app
/// waits for its next scheduled run, so the delay measured here is a lower bound).
package struct KeyFileQueue {
    package let limit: KeyFileRateLimit
    private let isIOS: [Bool]
    private var pending: [Int32: [PackageDownload]] = [:]
    private var deferredOnce: Set<UInt64> = []
    package private(set) var filesChecked: Int64 = 0
    package private(set) var filesDeferred: Int64 = 0
    package private(set) var fileDaysDeferred: Int64 = 0

    /// - Parameter isIOS: OS of each app phone (PhoneFleet order); phones beyond it count as Android.
    package init(limit: KeyFileRateLimit, isIOS: [Bool]) {
        self.limit = limit
        self.isIOS = isIOS
    }

    package var filesPending: Int64 { Int64(pending.values.reduce(0) { $0 + $1.count }) }

    /// The files checked on the UTC day starting at `midnight`, ordered by (phone, time, package);
    /// the rest wait. `downloads`: that day's downloads, any order.
    package mutating func admit(_ downloads: [PackageDownload], midnight: SimTime, threads: Int = 1) -> [PackageDownload] {
        guard limit.isActive else {
            filesChecked += Int64(downloads.count)
            // The simulation hands them over in this order already (`DistributionModel.advance(order: .phone)`).
            if PhoneDownloads.inPhoneOrder(downloads, threads: threads) { return downloads }
            return downloads.sorted { ($0.phone, $0.at, $0.package) < ($1.phone, $1.at, $1.package) }
        }
        var byPhone: [Int32: [PackageDownload]] = [:]
        for d in downloads { byPhone[d.phone, default: []].append(d) }
        let phones = Set(byPhone.keys).union(pending.keys).sorted()
        var out: [PackageDownload] = []
        for phone in phones {
            let waiting = (pending.removeValue(forKey: phone) ?? []).map { PackageDownload(phone: $0.phone, package: $0.package, at: midnight) }
            let today = (byPhone[phone] ?? []).sorted { ($0.at, $0.package) < ($1.at, $1.package) }
            let queue = waiting + today
            let quota = limit.filesPerDay(isIOS: Int(phone) < isIOS.count && isIOS[Int(phone)]) ?? queue.count
            out.append(contentsOf: queue.prefix(quota))
            filesChecked += Int64(min(quota, queue.count))
            guard queue.count > quota else { continue }
            let rest = Array(queue.dropFirst(quota))
            pending[phone] = rest
            fileDaysDeferred += Int64(rest.count)
            for d in rest where deferredOnce.insert(UInt64(UInt32(d.phone)) << 32 | UInt64(d.package)).inserted { filesDeferred += 1 }
        }
        return out
    }

    package var summary: KeyFileRateLimitSummary? {
        guard limit.isActive else { return nil }
        return KeyFileRateLimitSummary(iosFilesPerDay: limit.iosFilesPerDay, androidFilesPerDay: limit.androidFilesPerDay,
                                       filesChecked: filesChecked, filesDeferred: filesDeferred,
                                       fileDaysDeferred: fileDaysDeferred, filesPendingAtEnd: filesPending)
    }
}
