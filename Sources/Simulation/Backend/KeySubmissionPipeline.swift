import EventEngine
import GAEN
import GSL

/// The steps of a positive case's path to published keys; each is one engine event.
public enum PipelineStep: Int, CaseIterable, Sendable {
    case testResult
    case cwaResultPolled, cwaTeleTAN, cwaUpload, cwaRepeatUpload, cwaSecondUpload
    case immuniAuthoriseOTP, immuniCheckOTP, immuniUpload, immuniRepeatUpload

    public var name: String {
        ["test_result", "cwa_result_polled", "cwa_teletan", "cwa_upload", "cwa_repeat_upload", "cwa_second_upload",
         "immuni_authorise_otp", "immuni_check_otp", "immuni_upload", "immuni_repeat_upload"][rawValue]
    }
}

/// Health system and backend: index cases, verification (Immuni OTP or CWA TAN), uploads with
/// validation, dummy and national traffic, and publishing of signed export files.
///
/// The simulation calls `startDay` at each UTC midnight, `hour` at each full hour and `handle`
/// for each scheduled step; steps are scheduled through `schedule`. Per-case draws come from
/// streams keyed by (seed, "backend.case", person·16 + step), per-hour traffic from
/// ("backend.hour", hour), so nothing depends on event interleaving.
public final class KeySubmissionPipeline {
    public let health: HealthParameters
    public let parameters: BackendParameters
    let seed: UInt64
    let start: SimTime
    let hours: Int
    let phoneOf: [Int32]
    let appPhones: Int
    var generator: IndexCaseGenerator
    public let publisher: KeyPublisher
    var otpService: OTPService
    var verification = VerificationServer()
    let validator: UploadValidator
    let schedule: (PipelineStep, Int32, SimTime) -> Void

    struct CaseState {
        var phone: Int32
        var registrationToken: UInt64? = nil
        var tan: UInt64? = nil
        var otp: String? = nil
        /// The operator authorised a mistyped OTP that passed the check character.
        var authorisedWrongOTP = false
        var verified = false
        var attempts = 0
        var uploadedAt: SimTime? = nil
        var publishedAt: SimTime? = nil
    }
    /// Every case drawn so far (results may still be pending), and their state.
    private(set) var cases: [PositiveCase] = []
    private var state: [CaseState] = []
    private var caseOfPerson: [Int32: Int32] = [:]
    /// Immuni's exposure detection summaries app phone `phone` holds at a time (set by the
    /// simulation from its exposure detection; none when unset).
    var exposureSummaries: ((Int32, SimTime) -> [ImmuniExposureSummary])?
    /// Cases whose result has been delivered, in delivery order.
    public private(set) var positiveCases: [PositiveCase] = []
    /// Accepted first uploads of app users' keys, in upload order (P6 discloses at the same moments).
    public private(set) var uploads: [CaseUpload] = []

    public private(set) var funnel = Funnel()
    public private(set) var requests = [Int64](repeating: 0, count: Endpoint.allCases.count)
    public private(set) var rejections = [Int64](repeating: 0, count: RejectionReason.allCases.count)
    public private(set) var authFailures = [Int64](repeating: 0, count: AuthFailure.allCases.count)
    public private(set) var keysDroppedCurrentDay: Int64 = 0
    public private(set) var paddingKeys: Int64 = 0
    public private(set) var otpTyposCaught: Int64 = 0
    public private(set) var otpTyposUncaught: Int64 = 0
    public private(set) var polls: Int64 = 0
    var hourly: [BackendHour]
    private var lastBatch: SimTime
    /// Padding draws of each upload body, reseeded per upload from ("backend.body", time, uploader).
    private let bodyStream: RandomStream
    /// Length of every dummy/fake upload body: padding makes it independent of the draws, so one
    /// encoded body stands for the hour's aggregated count.
    public let dummyBodyBytes: Int
    /// Sees every counted upload body (tests).
    var bodyObserver: ((_ body: [UInt8], _ national: Bool) -> Void)?

    public init(health: HealthParameters, backend: BackendParameters, seed: UInt64, start: SimTime, days: Int,
                phoneOf: [Int32], appPhones: Int, series: CaseSeries?,
                schedule: @escaping (PipelineStep, Int32, SimTime) -> Void) {
        self.health = health
        parameters = backend
        self.seed = seed
        self.start = start
        hours = days * 24
        self.phoneOf = phoneOf
        self.appPhones = appPhones
        generator = IndexCaseGenerator(parameters: health, seed: seed, populationSize: phoneOf.count, series: series)
        publisher = KeyPublisher(parameters: backend, seed: seed)
        otpService = OTPService(validitySeconds: backend.otpValiditySeconds)
        validator = UploadValidator(flavor: backend.flavor, maxKeys: backend.effectiveMaxKeysPerUpload)
        self.schedule = schedule
        hourly = Array(repeating: BackendHour(), count: days * 24)
        lastBatch = start
        bodyStream = RandomStream(seed: seed, stream: "backend.body", generator: .taus2)
        dummyBodyBytes = Self.dummyBody(backend, rng: bodyStream).count
    }

    // MARK: Clock

    /// UTC midnight: the day's index cases, each scheduled at its result time; returns their number.
    @discardableResult
    public func startDay(midnight: SimTime) -> Int {
        let drawn = generator.cases(midnight: midnight)
        for c in drawn {
            let index = Int32(cases.count)
            cases.append(c)
            state.append(CaseState(phone: phoneOf[Int(c.person)]))
            caseOfPerson[c.person] = index
            schedule(.testResult, index, c.resultAt)
        }
        funnel.indexCases = cases.count
        return drawn.count
    }

    /// Full hour `t`: publish what the last hour made distributable, enforce retention, and
    /// the coming hour's aggregated dummy and national uploads.
    public func hour(_ t: SimTime) throws {
        if t > start {
            let before = publisher.published.count
            switch parameters.flavor {
            case .cwa:
                try publisher.publishHour(hourEnd: t)
            case .immuni:
                if (t / SimDuration.hour) % Int64(parameters.batchPeriodHours) == 0 {
                    try publisher.publishBatch(since: lastBatch, now: t)
                    lastBatch = t
                }
            }
            notePublished(publisher.published[before...], hour: hourIndex(t - 1))
        }
        publisher.applyRetention(now: t)
        otpService.purge(before: t)
        let rng = RandomStream(seed: seed, stream: "backend.hour", index: UInt64(bitPattern: t / SimDuration.hour), generator: .taus2)
        dummyTraffic(hour: t, rng: rng)
        try nationalUploads(hour: t, rng: rng)
    }

    private func notePublished(_ packages: ArraySlice<PublishedPackage>, hour h: Int?) {
        for p in packages {
            if let h {
                hourly[h].packages += 1
                hourly[h].packageBytes += Int64(p.bytes)
                if p.kind != .daily { hourly[h].keysPublished += Int64(p.keys.count) }
            }
            guard p.kind != .daily else { continue }
            for k in p.keys where k.uploader >= 0 {
                guard let i = caseOfPerson[k.uploader], state[Int(i)].publishedAt == nil else { continue }
                state[Int(i)].publishedAt = p.publishedAt
                funnel.published += 1
            }
        }
    }

    func hourIndex(_ t: SimTime) -> Int? {
        guard t >= start else { return nil }
        let h = Int((t - start) / SimDuration.hour)
        return h < hours ? h : nil
    }

    /// Counts requests inside the simulated window (a test registered before the start is not).
    func count(_ endpoint: Endpoint, at t: SimTime, _ n: Int64 = 1) {
        guard let h = hourIndex(t) else { return }
        requests[endpoint.rawValue] += n
        hourly[h].requests += n
    }

    func caseStream(_ i: Int32, _ step: PipelineStep, salt: Int = 0) -> RandomStream {
        let person = UInt64(cases[Int(i)].person)
        return RandomStream(seed: seed, stream: "backend.case", index: (person << 16) | UInt64(step.rawValue << 8 | salt), generator: .taus2)
    }

    // MARK: Steps

    public func handle(_ step: PipelineStep, case i: Int32, now: SimTime) throws {
        switch step {
        case .testResult: testResult(i, now: now)
        case .cwaResultPolled: cwaResultPolled(i, now: now)
        case .cwaTeleTAN: cwaTeleTAN(i, now: now)
        case .cwaUpload: try cwaUpload(i, now: now)
        case .cwaRepeatUpload: cwaRepeatUpload(i, now: now)
        case .cwaSecondUpload: try cwaSecondUpload(i, now: now)
        case .immuniAuthoriseOTP: immuniAuthoriseOTP(i, now: now)
        case .immuniCheckOTP: immuniCheckOTP(i, now: now)
        case .immuniUpload: try immuniUpload(i, now: now)
        case .immuniRepeatUpload: immuniRepeatUpload(i, now: now)
        }
    }

    private func testResult(_ i: Int32, now: SimTime) {
        let c = cases[Int(i)]
        positiveCases.append(c)
        guard state[Int(i)].phone >= 0 else { return }
        funnel.appUsers += 1
        let rng = caseStream(i, .testResult)
        switch parameters.flavor {
        case .cwa:
            if rng.bernoulli(p: parameters.teleTANShare) {
                funnel.teleTAN += 1
                schedule(.cwaTeleTAN, i, now + hours(parameters.hotlineDelayHours.draw(rng)))
                return
            }
            // QR code scanned at the test: registration, then polling until the result is there.
            state[Int(i)].registrationToken = verification.register(guid: UInt64(c.person), resultAt: c.resultAt)
            count(.cwaRegistrationToken, at: c.testedAt)
            let interval = Int64(parameters.pollIntervalMinutes) * SimDuration.minute
            var poll = c.testedAt + Int64(rng.uniformInt(Int(interval)))
            while poll < c.resultAt {
                count(.cwaTestResult, at: poll)
                if hourIndex(poll) != nil { polls += 1 }
                poll += interval
            }
            schedule(.cwaResultPolled, i, poll)
        case .immuni:
            // The health operator calls with the result; the user opens the app for an OTP.
            funnel.resultInApp += 1
            guard consents(rng) else { return }
            schedule(.immuniAuthoriseOTP, i, now + hours(health.consentDelayHours.draw(rng)))
        }
    }

    private func consents(_ rng: RandomStream) -> Bool {
        guard rng.bernoulli(p: health.uploadConsentShare) else {
            funnel.lostNoConsent += 1
            return false
        }
        funnel.consented += 1
        if rng.bernoulli(p: health.verificationDropoutShare) {
            funnel.lostVerificationDropout += 1
            return false
        }
        return true
    }

    func hours(_ h: Double) -> Int64 { max(1, Int64(h * Double(SimDuration.hour))) }

    private func cwaResultPolled(_ i: Int32, now: SimTime) {
        count(.cwaTestResult, at: now)
        polls += 1
        guard let token = state[Int(i)].registrationToken, verification.resultAvailable(token: token, at: now) else { return }
        funnel.resultInApp += 1
        let rng = caseStream(i, .cwaResultPolled)
        guard consents(rng) else { return }
        schedule(.cwaUpload, i, now + hours(health.consentDelayHours.draw(rng)))
    }

    private func cwaTeleTAN(_ i: Int32, now: SimTime) {
        count(.cwaTeleTAN, at: now)
        let teleTAN = verification.issueTeleTAN()
        count(.cwaRegistrationToken, at: now)
        state[Int(i)].registrationToken = verification.register(teleTAN: teleTAN, at: now)
        funnel.resultInApp += 1
        let rng = caseStream(i, .cwaTeleTAN)
        guard consents(rng) else { return }
        schedule(.cwaUpload, i, now + 60 + Int64(rng.uniformInt(600)))
    }

    private func cwaUpload(_ i: Int32, now: SimTime) throws {
        guard let token = state[Int(i)].registrationToken else { return }
        count(.cwaTAN, at: now)
        guard let tan = verification.issueTAN(token: token, at: now) else { return }
        state[Int(i)].tan = tan
        funnel.verified += 1
        let rng = caseStream(i, .cwaUpload)
        let day = SimClock.dayNumber(now)
        // GAEN keeps 14 days of keys: the 13 past ones now, today's after it rotates.
        let n = Int64(min(13, parameters.effectiveMaxKeysPerUpload))
        var keys = caseKeys(i, days: (day - n)...(day - 1), uploadDay: day)
        if rng.bernoulli(p: parameters.faultyUploadShare) { corrupt(&keys, rng: rng, now: now) }
        count(.cwaSubmission, at: now)
        count(.cwaTANVerify, at: now)
        _ = verification.verify(tan: tan)
        if submit(keys, uploader: cases[Int(i)].person, now: now, national: false) {
            state[Int(i)].uploadedAt = now
            uploads.append(CaseUpload(positiveCase: cases[Int(i)], phone: state[Int(i)].phone, at: now))
            funnel.uploaded += 1
            if rng.bernoulli(p: parameters.credentialReuseShare) { schedule(.cwaRepeatUpload, i, now + 30) }
            let nextMidnight = SimClock.startOfDay(now) + SimDuration.day
            schedule(.cwaSecondUpload, i, nextMidnight + hours(rng.exponential(mean: 2)))
        } else {
            funnel.lostRejected += 1
        }
    }

    private func cwaRepeatUpload(_ i: Int32, now: SimTime) {
        guard let tan = state[Int(i)].tan else { return }
        count(.cwaSubmission, at: now)
        count(.cwaTANVerify, at: now)
        if verification.verify(tan: tan) == .alreadyUsed { authFailures[AuthFailure.tanAlreadyUsed.index] += 1 }
    }

    /// After midnight the upload day's key is no longer in use; the app submits it with a new TAN.
    private func cwaSecondUpload(_ i: Int32, now: SimTime) throws {
        guard let token = state[Int(i)].registrationToken else { return }
        count(.cwaTAN, at: now)
        guard let tan = verification.issueTAN(token: token, at: now) else { return }
        count(.cwaSubmission, at: now)
        count(.cwaTANVerify, at: now)
        guard verification.verify(tan: tan) == .valid else { return }
        let day = SimClock.dayNumber(now) - 1
        _ = submit(caseKeys(i, days: day...day, uploadDay: day), uploader: cases[Int(i)].person, now: now, national: false)
    }

    private func immuniAuthoriseOTP(_ i: Int32, now: SimTime) {
        let rng = caseStream(i, .immuniAuthoriseOTP, salt: state[Int(i)].attempts)
        let otp = ImmuniOTP.generate(rng)
        state[Int(i)].otp = otp
        var typed = otp
        if rng.bernoulli(p: parameters.otpTypoShare) {
            var chars = Array(otp)
            let at = rng.uniformInt(chars.count)
            chars[at] = ImmuniOTP.alphabet[(ImmuniOTP.alphabet.firstIndex(of: chars[at])! + 1 + rng.uniformInt(24)) % 25]
            typed = String(chars)
            if ImmuniOTP.isValid(typed) { otpTyposUncaught += 1 } else {
                otpTyposCaught += 1  // the check character catches it; the operator asks again
                typed = otp
            }
        }
        state[Int(i)].authorisedWrongOTP = typed != otp
        count(.immuniAuthoriseOTP, at: now)
        let c = cases[Int(i)]
        otpService.authorise(otp: typed, symptomsStartedOn: c.symptomOnset.map(SimClock.dayNumber), at: now)
        schedule(.immuniCheckOTP, i, now + max(1, Int64(parameters.otpCheckDelaySeconds.draw(rng))))
    }

    private func immuniCheckOTP(_ i: Int32, now: SimTime) {
        guard let otp = state[Int(i)].otp else { return }
        count(.immuniCheckOTP, at: now)
        switch otpService.check(bearer: ImmuniOTP.bearerToken(otp), at: now) {
        case .valid:
            if !state[Int(i)].verified {
                state[Int(i)].verified = true
                funnel.verified += 1
            }
            let rng = caseStream(i, .immuniCheckOTP, salt: state[Int(i)].attempts)
            schedule(.immuniUpload, i, now + max(1, Int64(parameters.otpUploadDelaySeconds.draw(rng))))
        case .expired: otpFailed(i, .otpExpired, now: now)
        // The server answers 401 either way; the simulator knows whether the OTP was mistyped or expired and purged.
        case .unknown: otpFailed(i, state[Int(i)].authorisedWrongOTP ? .otpWrong : .otpExpired, now: now)
        }
    }

    private func otpFailed(_ i: Int32, _ reason: AuthFailure, now: SimTime) {
        authFailures[reason.index] += 1
        state[Int(i)].attempts += 1
        if state[Int(i)].attempts >= parameters.otpMaxAttempts {
            funnel.lostOTPGaveUp += 1
        } else {
            schedule(.immuniAuthoriseOTP, i, now + 120 + Int64(caseStream(i, .immuniCheckOTP, salt: 200).uniformInt(600)))
        }
    }

    private func immuniUpload(_ i: Int32, now: SimTime) throws {
        guard let otp = state[Int(i)].otp else { return }
        count(.immuniUpload, at: now)
        switch otpService.consume(bearer: ImmuniOTP.bearerToken(otp), at: now) {
        case .expired, .unknown: otpFailed(i, .otpExpired, now: now); return
        case .valid: break
        }
        let rng = caseStream(i, .immuniUpload)
        let day = SimClock.dayNumber(now)
        // The app sends its 14 most recent keys, today's included; the server drops today's.
        var keys = caseKeys(i, days: (day - 13)...day, uploadDay: day)
        if rng.bernoulli(p: parameters.faultyUploadShare) { corrupt(&keys, rng: rng, now: now) }
        if submit(keys, uploader: cases[Int(i)].person, now: now, national: false) {
            state[Int(i)].uploadedAt = now
            uploads.append(CaseUpload(positiveCase: cases[Int(i)], phone: state[Int(i)].phone, at: now))
            funnel.uploaded += 1
            if rng.bernoulli(p: parameters.credentialReuseShare) { schedule(.immuniRepeatUpload, i, now + 30) }
        } else {
            funnel.lostRejected += 1
        }
    }

    private func immuniRepeatUpload(_ i: Int32, now: SimTime) {
        guard let otp = state[Int(i)].otp else { return }
        count(.immuniUpload, at: now)
        if otpService.consume(bearer: ImmuniOTP.bearerToken(otp), at: now) != .valid { authFailures[AuthFailure.otpReused.index] += 1 }
    }

    // MARK: Payloads

    /// The case's keys of `days` from its phone (a pure function of seed, phone and day), with
    /// transmission risk by key age and, for CWA, days since symptom onset.
    func caseKeys(_ i: Int32, days: ClosedRange<Int64>, uploadDay: Int64) -> [SubmittedKey] {
        let c = cases[Int(i)]
        let scratch = RandomStream(seed: seed, stream: "tek", generator: .taus2)
        let onsetDay = c.symptomOnset.map(SimClock.dayNumber)
        return days.reversed().map { day in
            let tek = PhoneFleet.temporaryExposureKey(seed: seed, phone: Int(state[Int(i)].phone), dayNumber: day, stream: scratch)
            return SubmittedKey(tek, transmissionRiskLevel: transmissionRisk(age: uploadDay - day),
                                daysSinceOnsetOfSymptoms: parameters.flavor == .cwa ? onsetDay.map { Int32(day - $0) } : nil)
        }
    }

    func transmissionRisk(age: Int64) -> Int32 {
        let v = parameters.transmissionRiskByAge
        return v[Int(min(max(age, 0), Int64(v.count - 1)))]
    }

    /// A faulty client: one of duplicate, malformed, future or overlapping keys.
    func corrupt(_ keys: inout [SubmittedKey], rng: RandomStream, now: SimTime) {
        guard keys.count >= 2 else { return }
        switch rng.uniformInt(4) {
        case 0: keys[1].keyData = keys[0].keyData
        case 1: keys[0].keyData.removeLast()
        case 2: keys[0].rollingStartIntervalNumber = UInt32(SimClock.dayNumber(now) + 2) * 144
        default: keys[1].rollingStartIntervalNumber = keys[0].rollingStartIntervalNumber
        }
    }

    /// Validates an upload and hands accepted keys to the publisher; false if rejected.
    @discardableResult
    func submit(_ keys: [SubmittedKey], uploader: Int32, now: SimTime, national: Bool) -> Bool {
        let h = hourIndex(now)
        if let h {
            if national { hourly[h].nationalUploads += 1 } else { hourly[h].realUploads += 1 }
            let body = uploadBody(keys, uploader: uploader, now: now)
            hourly[h].uploadBytes += Int64(body.count)
            bodyObserver?(body, national)
        }
        if let reason = validator.validate(keys, at: now) {
            rejections[reason.index] += 1
            if let h {
                hourly[h].rejectedUploads += 1
                hourly[h].keysRejected += Int64(keys.count)
            }
            return false
        }
        var accepted = keys
        if parameters.flavor == .immuni {
            let today = UInt32(SimClock.dayNumber(now) * 144)
            accepted.removeAll { $0.rollingStartIntervalNumber >= today }
            keysDroppedCurrentDay += Int64(keys.count - accepted.count)
        }
        var published = accepted.compactMap { $0.diagnosisKey }.map { PublishedKey(key: $0, uploader: uploader, uploadedAt: now) }
        if parameters.keyPaddingMultiplier > 1 {
            let rng = RandomStream(seed: seed, stream: "backend.padding", index: UInt64(bitPattern: now) << 20 | UInt64(UInt32(bitPattern: uploader)), generator: .taus2)
            for k in published {
                for _ in 1..<parameters.keyPaddingMultiplier {
                    var pad = k
                    pad.key.temporaryExposureKey.keyData = Bytes16(bytes: rng.bytes(16))!
                    pad.uploader = -1
                    published.append(pad)
                    paddingKeys += 1
                }
            }
        }
        if let h { hourly[h].keysReceived += Int64(published.count) }
        publisher.add(published, now: now)
        return true
    }

    // MARK: Request bodies

    /// The upload's request body as the app encodes it (UploadBodies.swift), Immuni's with the
    /// uploader's exposure detection summaries from `exposureSummaries` (the run's detections).
    func uploadBody(_ keys: [SubmittedKey], uploader: Int32, now: SimTime) -> [UInt8] {
        bodyStream.reseed(StreamKey(seed: seed, stream: "backend.body",
                                    index: UInt64(bitPattern: now) << 24 ^ UInt64(UInt32(bitPattern: uploader))))
        switch parameters.flavor {
        case .cwa:
            return UploadBodies.cwa(keys: keys, paddedKeyCount: parameters.cwaPaddedKeyCount,
                                    bytesPerKey: parameters.cwaPaddingBytesPerKey, rng: bodyStream)
        case .immuni:
            let phone = caseOfPerson[uploader].map { state[Int($0)].phone } ?? -1
            let province = phone >= 0 ? ImmuniProvince.code(phone: phone, seed: seed) : ImmuniProvince.code(drawnFrom: bodyStream)
            let summaries = phone >= 0 ? exposureSummaries?(phone, now) ?? [] : []
            return UploadBodies.immuni(keys: keys, province: province, summaries: summaries, targetBytes: parameters.immuniUploadTargetBytes,
                                       maxSummaries: parameters.immuniMaxSummaryCount,
                                       maxExposureInfo: parameters.immuniMaxExposureInfoCount, rng: bodyStream)
        }
    }

    static func dummyBody(_ p: BackendParameters, rng: RandomStream) -> [UInt8] {
        switch p.flavor {
        case .cwa: return UploadBodies.cwaFake(paddedKeyCount: p.cwaPaddedKeyCount, bytesPerKey: p.cwaPaddingBytesPerKey, rng: rng)
        case .immuni: return UploadBodies.immuniDummy(targetBytes: p.immuniUploadTargetBytes, rng: rng)
        }
    }

    // MARK: Aggregated traffic

    /// Dummy sessions from healthy phones in [t, t + 1 h): a Poisson count, not one event each.
    /// The servers accept and discard them; they count in load and bytes.
    func dummyTraffic(hour t: SimTime, rng: RandomStream) {
        let n = Int64(rng.poisson(mean: parameters.dummyUploadsPerPhoneDay * Double(appPhones) / 24))
        guard n > 0 else { return }
        switch parameters.flavor {
        case .cwa:
            count(.cwaFakeRegistrationToken, at: t, n)
            count(.cwaFakeTAN, at: t, n)
            count(.cwaFakeSubmission, at: t, n)
        case .immuni:
            count(.immuniDummyCheckOTP, at: t, n)
            count(.immuniDummyUpload, at: t, n)
        }
        if let h = hourIndex(t) {
            hourly[h].dummyUploads += n
            hourly[h].uploadBytes += n * Int64(dummyBodyBytes)
        }
    }

    /// Uploads from the rest of the country in [t, t + 1 h): random keys (uploader −1) through
    /// the same validation and publishing, so packages have national size.
    func nationalUploads(hour t: SimTime, rng: RandomStream) throws {
        let n = rng.poisson(mean: health.nationalUploadsPerDay / 24)
        let day = SimClock.dayNumber(t)
        for _ in 0..<n {
            let at = t + Int64(rng.uniformInt(Int(SimDuration.hour)))
            let days: ClosedRange<Int64> = parameters.flavor == .cwa ? (day - 13)...(day - 1) : (day - 13)...day
            let keys = days.reversed().map { d in
                SubmittedKey(keyData: rng.bytes(16), rollingStartIntervalNumber: UInt32(d * 144),
                             transmissionRiskLevel: transmissionRisk(age: day - d))
            }
            count(parameters.flavor == .cwa ? .cwaSubmission : .immuniUpload, at: at)
            submit(keys, uploader: -1, now: at, national: true)
        }
    }

    // MARK: Results

    /// Hours from test to first publication of the case's keys, for cases published so far.
    public var testToPublicationHours: [Double] {
        zip(cases, state).compactMap { c, s in s.publishedAt.map { Double($0 - c.testedAt) / Double(SimDuration.hour) } }
    }

    /// Days from infection to first publication of the case's keys, for cases published so far.
    public var infectionToPublicationDays: [Double] {
        zip(cases, state).compactMap { c, s in s.publishedAt.map { Double($0 - c.infectedAt) / Double(SimDuration.day) } }
    }
}

extension RejectionReason { var index: Int { RejectionReason.allCases.firstIndex(of: self)! } }
extension AuthFailure { var index: Int { AuthFailure.allCases.firstIndex(of: self)! } }

/// A positive case's accepted key upload.
public struct CaseUpload: Sendable, Hashable {
    public var positiveCase: PositiveCase
    public var phone: Int32
    public var at: SimTime
}
