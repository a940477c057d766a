import EventEngine
import GAEN
import GSL

/// Health system and backend: index cases, verification (Immuni OTP or CWA TAN), uploads with
/// validation, dummy and national traffic, and publishing of signed export files.
///
/// One object the run holds, composed of the case clock (`CaseClock`), the app's flow
/// (`CWAFlow` or `ImmuniFlow`), the payloads (`UploadPayloads`), the upload server
/// (`UploadServer`), the aggregated traffic (`AggregatedTraffic`) and the publisher.
/// The simulation calls `startDay` at each UTC midnight, `hour` at each full hour and `handle`
/// for each scheduled step; steps are scheduled through `schedule`. Per-case draws come from
/// streams keyed by (seed, "backend.case", person·16 + step), per-hour traffic from
/// ("backend.hour", hour), so nothing depends on event interleaving.
public final class KeySubmissionPipeline {
    public let health: HealthParameters
    public let parameters: BackendParameters
    package let start: SimTime
    package let phoneOf: [Int32]
    private var clock: CaseClock
    public let publisher: KeyPublisher
    package let ledger: BackendLedger
    package let payloads: UploadPayloads
    package let server: UploadServer
    package let context: FlowContext
    package let flow: any KeySubmissionFlow
    package let traffic: AggregatedTraffic
    package let schedule: (PipelineStep, Int32, SimTime) -> Void
    /// Days ahead the cases are drawn so that what a test does before its result is counted when
    /// it happens: a test precedes its result by more only with probability 10⁻⁹.
    package let lookaheadDays: Int
    /// When each drawn case's keys were first published (nil: not yet), by case index.
    private var publishedAt: [SimTime?] = []

    public init(health: HealthParameters, backend: BackendParameters, seed: UInt64, start: SimTime, days: Int,
                phoneOf: [Int32], appPhones: Int, series: CaseSeries?,
                schedule: @escaping (PipelineStep, Int32, SimTime) -> Void) {
        self.health = health
        parameters = backend
        self.start = start
        self.phoneOf = phoneOf
        self.schedule = schedule
        lookaheadDays = max(1, Int((health.resultDelayHours.upperQuantile(1e-9) / 24).rounded(.up)))
        clock = CaseClock(parameters: health, seed: seed, populationSize: phoneOf.count, series: series)
        publisher = KeyPublisher(parameters: backend, seed: seed)
        // CWA publishes 25 packages a day (24 hourly, 1 daily); Immuni fewer.
        publisher.reserve(packages: days * 25)
        ledger = BackendLedger(start: start, days: days)
        payloads = UploadPayloads(parameters: backend, seed: seed)
        server = UploadServer(parameters: backend, seed: seed, ledger: ledger, payloads: payloads, publisher: publisher)
        let failures = UploadFailures(parameters: backend)
        if failures.enabled { ledger.funnel.lostUploadFailed = 0 }
        let context = FlowContext(health: health, parameters: backend, seed: seed, ledger: ledger, payloads: payloads, server: server,
                                  failures: failures, scheduleStep: schedule)
        self.context = context
        switch backend.flavor {
        case .cwa: flow = CWAFlow(context: context)
        case .immuni: flow = ImmuniFlow(context: context, start: start)
        }
        traffic = AggregatedTraffic(health: health, parameters: backend, seed: seed, appPhones: appPhones, ledger: ledger,
                                    payloads: payloads, server: server, flow: flow)
    }

    /// Cases whose result has been delivered, in delivery order.
    public var positiveCases: [PositiveCase] { clock.delivered }

    /// Replaces the case series: each day's cases (results due that day) come from `source`.
    package func takeCases(from source: @escaping (SimTime) -> [PositiveCase]) { clock.source = source }
    /// Accepted first uploads of app users' keys, in upload order (P6 discloses at the same moments).
    public var uploads: [CaseUpload] { server.caseUploads }
    public var funnel: Funnel { ledger.funnel }
    public var requests: [Int64] { ledger.requests }
    package var hourly: [BackendHour] { ledger.hourly }
    /// Length of every dummy/fake upload body.
    public var dummyBodyBytes: Int { payloads.dummyBodyBytes }
    /// Immuni's exposure detection summaries app phone `phone` holds at a time (set by the
    /// simulation from its exposure detection; none when unset).
    package var exposureSummaries: ((Int32, SimTime) -> [ImmuniExposureSummary])? {
        get { payloads.exposureSummaries }
        set { payloads.exposureSummaries = newValue }
    }
    /// Sees every counted upload body (tests).
    package var bodyObserver: ((_ body: [UInt8], _ national: Bool) -> Void)? {
        get { server.bodyObserver }
        set { server.bodyObserver = newValue }
    }

    // MARK: Clock

    /// UTC midnight: the day's index cases, each scheduled at its result time; returns their number.
    @discardableResult
    public func startDay(midnight: SimTime) -> Int {
        for c in clock.drawAhead(from: midnight, through: midnight + Int64(lookaheadDays) * SimDuration.day) {
            countRequestsBeforeResult(c, index: -1)
        }
        let drawn = clock.drawDay(midnight: midnight)
        // Cases not drawn ahead (the epidemic's) count what their tests did before their result
        // now, in the past hours it happened.
        if !clock.drawsAhead { for i in drawn { countRequestsBeforeResult(clock[i], index: i) } }
        for i in drawn {
            publishedAt.append(nil)
            schedule(.testResult, i, clock[i].resultAt)
        }
        ledger.funnel.indexCases = clock.cases.count
        return drawn.count
    }

    /// An app user's test's requests before its result (CWA's registration and polls), from the
    /// case's own `.testResult` stream.
    private func countRequestsBeforeResult(_ positive: PositiveCase, index: Int32) {
        let phone = phoneOf[Int(positive.person)]
        guard phone >= 0 else { return }
        let c = FlowCase(index: index, positive: positive, phone: phone)
        flow.requestsBeforeResult(c, rng: context.stream(c, .testResult))
    }

    /// Full hour `t`: publish what the last hour made distributable, enforce retention, and
    /// the coming hour's aggregated dummy and national uploads.
    public func hour(_ t: SimTime) throws {
        if t > start {
            let before = publisher.published.count
            try flow.publish(hourEnd: t)
            // Without deferral the publisher built each archive as it published it.
            if !publisher.defersArchives { noteBuilt(before..<publisher.published.count) }
            // Counted in the hour they are published (the one after the hour they cover), so a
            // row never changes after its hour, and a run's last instant publishes nothing.
            notePublished(publisher.published[before...], hour: ledger.hourIndex(t))
        }
        publisher.applyRetention(now: t)
        flow.purge(before: t)
        traffic.hour(t)
    }

    /// Builds the archives published since the last call (on `threads` threads) and counts their
    /// bytes in the hour they were published.
    public func buildArchives(threads: Int) throws { noteBuilt(try publisher.buildArchives(threads: threads)) }

    private func noteBuilt(_ sequences: some Sequence<Int>) {
        for s in sequences {
            let p = publisher.published[s]
            if let h = ledger.hourIndex(p.publishedAt) { ledger.hourly[h].packageBytes += Int64(p.bytes) }
        }
    }

    private func notePublished(_ packages: ArraySlice<PublishedPackage>, hour h: Int?) {
        for p in packages {
            if let h {
                ledger.hourly[h].packages += 1
                if p.kind != .daily { ledger.hourly[h].keysPublished += Int64(p.keys.count) }
            }
            guard p.kind != .daily else { continue }
            for k in p.keys where k.uploader >= 0 {
                guard let i = clock.index(ofPerson: k.uploader), publishedAt[Int(i)] == nil else { continue }
                publishedAt[Int(i)] = p.publishedAt
                ledger.funnel.published += 1
            }
        }
    }

    // MARK: Steps

    public func handle(_ step: PipelineStep, case i: Int32, now: SimTime) throws {
        let c = FlowCase(index: i, positive: clock[i], phone: phoneOf[Int(clock[i].person)])
        guard step == .testResult else { return flow.handle(step, c, now: now) }
        clock.deliver(i)
        guard c.phone >= 0 else { return }
        ledger.funnel.appUsers += 1
        flow.resultDelivered(c, now: now, rng: context.stream(c, .testResult))
    }

    // MARK: Results

    /// Hours from test to first publication of the case's keys, for cases published so far.
    public var testToPublicationHours: [Double] {
        zip(clock.cases, publishedAt).compactMap { c, at in at.map { Double($0 - c.testedAt) / Double(SimDuration.hour) } }
    }

    /// Days from infection to first publication of the case's keys, for cases published so far.
    public var infectionToPublicationDays: [Double] {
        zip(clock.cases, publishedAt).compactMap { c, at in at.map { Double($0 - c.infectedAt) / Double(SimDuration.day) } }
    }
}
