import EventEngine
import GAEN
import GSL

/// Immuni: the health operator calls with the result; the user opens the app for an OTP, which
/// the operator authorises (a mistyped one is usually caught by its check character); the app
/// checks it, then uploads with it once. Packages are published in batches.
package final class ImmuniFlow: KeySubmissionFlow {
    private struct CaseState {
        package var otp: String? = nil
        /// The operator authorised a mistyped OTP that passed the check character.
        package var authorisedWrongOTP = false
        package var verified = false
        package var attempts = 0
    }

    private let context: FlowContext
    private var otpService: OTPService
    private var state: [Int32: CaseState] = [:]
    /// End of the last published batch.
    private var lastBatch: SimTime

    package init(context: FlowContext, start: SimTime) {
        self.context = context
        otpService = OTPService(validitySeconds: context.parameters.otpValiditySeconds)
        lastBatch = start
    }

    private var parameters: BackendParameters { context.parameters }
    private var ledger: BackendLedger { context.ledger }

    package let dummySessionEndpoints: [Endpoint] = [.immuniDummyCheckOTP, .immuniDummyUpload]
    package let uploadEndpoint = Endpoint.immuniUpload

    /// The app sends its 14 most recent keys, today's included; the server drops today's.
    package func fullUploadDays(on day: Int64) -> ClosedRange<Int64> { (day - 13)...day }

    package func publish(hourEnd t: SimTime) throws {
        guard (t / SimDuration.hour) % Int64(parameters.batchPeriodHours) == 0 else { return }
        try context.publisher.publishBatch(since: lastBatch, now: t)
        lastBatch = t
    }

    package func purge(before t: SimTime) { otpService.purge(before: t) }

    /// Immuni's app asks nothing before the result: the operator unlocks the OTP afterwards.
    package func requestsBeforeResult(_ c: FlowCase, rng: RandomStream) {}

    package func resultDelivered(_ c: FlowCase, now: SimTime, rng: RandomStream) {
        ledger.funnel.resultInApp += 1
        guard context.consents(rng) else { return }
        context.schedule(.immuniAuthoriseOTP, c, at: now + context.hours(context.health.consentDelayHours.draw(rng)))
    }

    package func handle(_ step: PipelineStep, _ c: FlowCase, now: SimTime) {
        switch step {
        case .immuniAuthoriseOTP: authoriseOTP(c, now: now)
        case .immuniCheckOTP: checkOTP(c, now: now)
        case .immuniUpload: upload(c, now: now)
        case .immuniRepeatUpload: repeatUpload(c, now: now)
        default: preconditionFailure("\(step.name) is not an Immuni step")
        }
    }

    private func authoriseOTP(_ c: FlowCase, now: SimTime) {
        let rng = context.stream(c, .immuniAuthoriseOTP, salt: state[c.index]?.attempts ?? 0)
        let otp = ImmuniOTP.generate(rng)
        var typed = otp
        if rng.bernoulli(p: parameters.otpTypoShare) {
            var chars = Array(otp)
            let at = rng.uniformInt(chars.count)
            chars[at] = ImmuniOTP.alphabet[(ImmuniOTP.alphabet.firstIndex(of: chars[at])! + 1 + rng.uniformInt(24)) % 25]
            typed = String(chars)
            if ImmuniOTP.isValid(typed) { ledger.otpTyposUncaught += 1 } else {
                ledger.otpTyposCaught += 1  // the check character catches it; the operator asks again
                typed = otp
            }
        }
        state[c.index, default: CaseState()].otp = otp
        state[c.index, default: CaseState()].authorisedWrongOTP = typed != otp
        ledger.count(.immuniAuthoriseOTP, at: now)
        otpService.authorise(otp: typed, symptomsStartedOn: Self.symptomsStartedOn(c.positive), at: now)
        context.schedule(.immuniCheckOTP, c, at: now + max(1, Int64(parameters.otpCheckDelaySeconds.draw(rng))))
    }

    /// What the health operator enters: the day of symptom onset, or the day of the swab for a case
    /// without symptoms, never after the swab (the ingestion service's rule since
    /// immuni-backend-exposure-ingestion#52, February 2021).
    static func symptomsStartedOn(_ p: PositiveCase) -> Int64 {
        let swab = SimClock.dayNumber(p.testedAt)
        return min(p.symptomOnset.map(SimClock.dayNumber) ?? swab, swab)
    }

    private func checkOTP(_ c: FlowCase, now: SimTime) {
        guard let s = state[c.index], let otp = s.otp else { return }
        ledger.count(.immuniCheckOTP, at: now)
        switch otpService.check(bearer: ImmuniOTP.bearerToken(otp), at: now) {
        case .valid:
            if !s.verified {
                state[c.index]?.verified = true
                ledger.funnel.verified += 1
            }
            let rng = context.stream(c, .immuniCheckOTP, salt: s.attempts)
            context.schedule(.immuniUpload, c, at: now + max(1, Int64(parameters.otpUploadDelaySeconds.draw(rng))))
        case .expired: otpFailed(c, .otpExpired, now: now)
        // The server answers 401 either way; the simulator knows whether the OTP was mistyped or expired and purged.
        case .unknown: otpFailed(c, s.authorisedWrongOTP ? .otpWrong : .otpExpired, now: now)
        }
    }

    private func otpFailed(_ c: FlowCase, _ reason: AuthFailure, now: SimTime) {
        ledger.authFailed(reason)
        let attempts = (state[c.index]?.attempts ?? 0) + 1
        state[c.index, default: CaseState()].attempts = attempts
        if attempts >= parameters.otpMaxAttempts {
            ledger.funnel.lostOTPGaveUp += 1
        } else {
            context.schedule(.immuniAuthoriseOTP, c, at: now + 120 + Int64(context.stream(c, .immuniCheckOTP, salt: 200).uniformInt(600)))
        }
    }

    private func upload(_ c: FlowCase, now: SimTime) {
        guard let otp = state[c.index]?.otp else { return }
        let symptomsStartedOn = otpService.symptomsStartedOn(bearer: ImmuniOTP.bearerToken(otp))
        // A retry after a lost attempt finds the OTP expired unless it is quick: a new OTP from the operator.
        if context.failures.attemptFails(c, .immuniUpload, now: now, context: context) { return }
        ledger.count(.immuniUpload, at: now)
        switch otpService.consume(bearer: ImmuniOTP.bearerToken(otp), at: now) {
        case .expired, .unknown: otpFailed(c, .otpExpired, now: now); return
        case .valid: break
        }
        let rng = context.stream(c, .immuniUpload)
        let day = SimClock.dayNumber(now)
        var keys = context.payloads.caseKeys(c, days: fullUploadDays(on: day), uploadDay: day)
        if rng.bernoulli(p: parameters.faultyUploadShare) { UploadPayloads.corrupt(&keys, rng: rng, now: now) }
        guard context.server.submitCase(keys, of: c, now: now, symptomsStartedOn: symptomsStartedOn) else { return }
        context.failures.succeeded(c, now: now)
        if rng.bernoulli(p: parameters.credentialReuseShare) { context.schedule(.immuniRepeatUpload, c, at: now + 30) }
    }

    private func repeatUpload(_ c: FlowCase, now: SimTime) {
        guard let otp = state[c.index]?.otp else { return }
        ledger.count(.immuniUpload, at: now)
        if otpService.consume(bearer: ImmuniOTP.bearerToken(otp), at: now) != .valid { ledger.authFailed(.otpReused) }
    }
}
