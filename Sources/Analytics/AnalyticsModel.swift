import EventEngine
import GSL
import HealthBackend
import SimulationCore
import World

/// One phone as the analytics model sees it.
public struct AnalyticsPhoneProfile: Sendable, Equatable {
    public var os: OperatingSystem
    /// Index into the region weights (area of domicile).
    public var region: Int
    /// Index into `ItalianProvinces.all` (province of domicile, within `region`); -1 when the
    /// region weights are not Italy's 21 areas.
    public var province: Int
    /// First launch (iOS: first analytics token; Android: first configuration fetch).
    public var installTime: SimTime
    /// A genuine device with an untampered app (DeviceCheck valid / SafetyNet passes).
    public var genuine: Bool
    public var exposurePermission: Bool
    public var notificationPermission: Bool

    public init(os: OperatingSystem, region: Int, province: Int = -1, installTime: SimTime, genuine: Bool = true,
                exposurePermission: Bool = true, notificationPermission: Bool = true) {
        self.os = os
        self.region = region
        self.province = province
        self.installTime = installTime
        self.genuine = genuine
        self.exposurePermission = exposurePermission
        self.notificationPermission = notificationPermission
    }
}

/// Events of the analytics model's own engine. Times are Unix milliseconds.
package enum AnalyticsEvent: EventKind {
    case install(phone: Int32)
    case detection(phone: Int32, riskyDay: Int64, bluetoothOn: Bool)
    /// A token authorisation request reaches the Analytics Service.
    case tokenRequestArrives(request: Int32)
    /// The service's answer (201 authorised / 202 in progress) reaches the sender.
    case tokenResponseArrives(request: Int32, authorised: Bool)
    /// A worker's DeviceCheck call reaches the DeviceCheck server / its answer reaches the worker.
    case deviceCheckApplies(call: Int32)
    case deviceCheckAnswers(call: Int32)
    case deviceCheckTimesOut(call: Int32)
    /// A worker resumes after read_time or check_time.
    case workerWakes(worker: Int32)
    case attestationReturns(upload: Int32)
    case uploadArrives(upload: Int32)
    case attacker(index: Int32)

    package var kindIndex: Int {
        switch self {
        case .install: 0
        case .detection: 1
        case .tokenRequestArrives: 2
        case .tokenResponseArrives: 3
        case .deviceCheckApplies: 4
        case .deviceCheckAnswers: 5
        case .deviceCheckTimesOut: 6
        case .workerWakes: 7
        case .attestationReturns: 8
        case .uploadArrives: 9
        case .attacker: 10
        }
    }

    package static let kindNames = ["install", "detection", "token_request", "token_response", "device_check_apply",
                            "device_check_answer", "device_check_timeout", "worker_wake", "attestation", "upload", "attacker"]
}

/// Who sent a request: a legitimate phone or one of the attacks.
package enum RequestSource: Int, CaseIterable {
    case legitimate, iOSTokenFarm, iOSRace, iOSReplay, androidReplay, androidReinstall, androidNonGenuine

    package var name: String {
        ["legitimate", "ios_token_farm", "ios_race", "ios_replay", "android_replay", "android_reinstall", "android_non_genuine"][rawValue]
    }
}

/// Immuni's Operational Info pipeline as a discrete-event model with its own engine: phones
/// (sampling tests, analytics tokens, SafetyNet uploads), the Analytics Service and its
/// concurrent authorisation workers, Apple's DeviceCheck server, the SafetyNet attestation
/// service and attackers. Detections drive it: `detectionRan` (or the synthetic source).
///
/// Randomness: each phone, request, worker, upload and attacker draws from its own GSL
/// stream keyed by (seed, name, index), so results do not depend on event interleaving.
public final class AnalyticsModel {
    public let parameters: AnalyticsParameters
    public let seed: UInt64
    public let start: SimTime
    public let end: SimTime
    package let profiles: [AnalyticsPhoneProfile]
    /// On a 4-ary heap: each day brings a batch of detections at once, ms apart or tied at whole
    /// seconds, which a calendar queue (the simulation's engine) serves worse: 28.2 s against
    /// 15.7 s for `immuni-analytics-simulated.yaml` at 40,000 people, the same outputs.
    package let engine: QueuedEngine<AnalyticsEvent, QuaternaryHeap>

    package var phones: [PhoneState]
    package let phoneStreams: [RandomStream]
    package var deviceCheck = DeviceCheckServer()
    package var service = AnalyticsServiceState()
    package var requests: [TokenRequest] = []
    package var workers: [AuthorisationWorker] = []
    package var calls: [DeviceCheckCall] = []
    package var uploads: [UploadRequest] = []
    package var attackers: [AttackerDevice] = []
    package var attackActionStore: [AttackAction] = []
    package var attackerUsedTokens: Set<Int64> = []
    /// Interceptions per month: [iOS token requests, Android uploads].
    package var replayCounts: [[Int]]
    package let auxStream: RandomStream
    package var ledger: AnalyticsLedger
    /// Pins each worker's read_time (tests that walk through interleavings).
    package var readTimeOverride: ((Int) -> Int64)?

    /// `days` from `start` (UTC midnight); phones' profiles give OS, region, install time and permissions.
    public init(parameters: AnalyticsParameters, seed: UInt64, start: SimTime, days: Int, phones profiles: [AnalyticsPhoneProfile]) {
        precondition(days >= 1 && profiles.allSatisfy { parameters.regionWeights.indices.contains($0.region) })
        precondition(profiles.allSatisfy { $0.province < 0 || ItalianProvinces.regionIndex[$0.province] == $0.region })
        self.parameters = parameters
        self.seed = seed
        self.start = start
        self.end = start + Int64(days) * SimDuration.day
        self.profiles = profiles
        engine = QueuedEngine(start: start * 1000)
        phones = Array(repeating: PhoneState(), count: profiles.count)
        phoneStreams = (0..<profiles.count).map {
            RandomStream(seed: seed, stream: "analytics.phone", index: UInt64($0), generator: .taus2)
        }
        auxStream = RandomStream(seed: seed, stream: "analytics.aux", generator: .taus2)
        ledger = AnalyticsLedger(start: start, end: end, regions: parameters.regionWeights.count)
        replayCounts = Array(repeating: Array(repeating: 0, count: ledger.months.count), count: 2)
        deviceCheck.ensure(device: max(0, profiles.count - 1))
        for (i, p) in profiles.enumerated() where p.installTime < end {
            engine.schedule(.install(phone: Int32(i)), at: max(start, p.installTime) * 1000)
        }
        scheduleAttacks()
    }

    // MARK: API for the main simulation

    /// A phone completed an exposure detection at `at`; `riskyExposureDay` (day number) when it
    /// found a risky exposure. `at` must not precede the last `advance(until:)`.
    public func detectionRan(phone: Int, at: SimTime, riskyExposureDay: Int64?, bluetoothOn: Bool = true) {
        guard at < end else { return }
        engine.schedule(.detection(phone: Int32(phone), riskyDay: riskyExposureDay ?? -1, bluetoothOn: bluetoothOn), at: at * 1000)
    }

    /// Runs every event before `until` (seconds).
    public func advance(until: SimTime) {
        engine.run(until: min(until, end) * 1000) { handle($0) }
    }

    /// Runs to the end and reports: summary section and tables (monthly.csv, analytics_hourly.csv,
    /// analytics_provinces.csv).
    public func finish() -> (summary: AnalyticsSummary, tables: [NamedTable]) {
        advance(until: end)
        let report = AnalyticsReport(model: self)
        return (report.summary(), [NamedTable("monthly.csv", report.monthlyTable()),
                                   NamedTable("analytics_hourly.csv", report.hourlyTable()),
                                   NamedTable("analytics_provinces.csv", report.provinceTable())])
    }

    package var nowMs: Int64 { engine.now }
    package var nowSeconds: SimTime { engine.now / 1000 }
    public var eventsProcessed: Int { engine.processedCount }

    package func handle(_ event: AnalyticsEvent) {
        switch event {
        case .install(let phone): phoneInstalled(Int(phone))
        case let .detection(phone, riskyDay, bluetoothOn):
            phoneDetected(Int(phone), riskyDay: riskyDay >= 0 ? riskyDay : nil, bluetoothOn: bluetoothOn)
        case .tokenRequestArrives(let r): tokenRequestArrived(Int(r))
        case let .tokenResponseArrives(r, authorised): tokenResponseArrived(Int(r), authorised: authorised)
        case .deviceCheckApplies(let c): deviceCheckApplies(Int(c))
        case .deviceCheckAnswers(let c): deviceCheckAnswered(Int(c))
        case .deviceCheckTimesOut(let c): deviceCheckTimedOut(Int(c))
        case .workerWakes(let w): workerWoke(Int(w))
        case .attestationReturns(let u): attestationReturned(Int(u))
        case .uploadArrives(let u): uploadArrived(Int(u))
        case .attacker(let a): attackerActs(Int(a))
        }
    }

    /// Uniform whole milliseconds in a range.
    package static func draw(_ range: ClosedRange<Int64>, _ stream: RandomStream) -> Int64 {
        range.lowerBound + Int64(stream.uniformInt(Int(range.upperBound - range.lowerBound) + 1))
    }
}

extension AnalyticsModel {
    /// Schedules an authorisation request with a new analytics token from DeviceCheck device
    /// `device` at `atMs` (interleaving studies). Returns the token.
    @discardableResult
    package func scheduleAuthorisation(device: Int, atMs: Int64, source: RequestSource = .iOSRace) -> Int64 {
        let i = attackers.count
        attackers.append(AttackerDevice(source: source, device: device, region: 0, province: -1))
        let token = service.newTokenID()
        scheduleAction(AttackAction(attacker: i, kind: .poll(token: token)), atMs: atMs)
        return token
    }

    package var authorisedTokens: Set<Int64> { Set(service.authorised.keys) }
}
