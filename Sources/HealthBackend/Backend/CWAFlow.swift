import EventEngine
import GAEN
import GSL

/// Corona-Warn-App: the QR code scanned at the test is registered and the result polled, or
/// the hotline hands out a teleTAN; each upload needs a TAN, which works once. The upload day's
/// key follows after midnight with a second TAN. Packages are published every hour.
package final class CWAFlow: KeySubmissionFlow {
    private struct CaseState {
        package var registrationToken: UInt64? = nil
        package var tan: UInt64? = nil
        /// Whether the app losing its registration token has been drawn, and whether it did.
        package var tokenLossDrawn = false
        package var tokenLost = false
    }

    private let context: FlowContext
    private var verification = VerificationServer()
    private var state: [Int32: CaseState] = [:]

    package init(context: FlowContext) { self.context = context }

    private var parameters: BackendParameters { context.parameters }
    private var ledger: BackendLedger { context.ledger }

    package let dummySessionEndpoints: [Endpoint] = [.cwaFakeRegistrationToken, .cwaFakeTAN, .cwaFakeSubmission]
    package let uploadEndpoint = Endpoint.cwaSubmission

    /// GAEN keeps 14 days of keys: the 13 past ones go now, today's after it rotates.
    package func fullUploadDays(on day: Int64) -> ClosedRange<Int64> { (day - 13)...(day - 1) }

    package func publish(hourEnd t: SimTime) throws { try context.publisher.publishHour(hourEnd: t) }

    package func purge(before t: SimTime) {}

    /// The QR code scanned at the test is registered, then the app polls every interval until the
    /// result is there: the polls' times from the first, which draws its offset (nil: the hotline
    /// hands out a teleTAN after the result instead).
    private func firstPoll(_ p: PositiveCase, rng: RandomStream) -> SimTime? {
        guard !rng.bernoulli(p: parameters.teleTANShare) else { return nil }
        return p.testedAt + Int64(rng.uniformInt(Int(pollInterval)))
    }

    private var pollInterval: Int64 { Int64(parameters.pollIntervalMinutes) * SimDuration.minute }

    package func requestsBeforeResult(_ c: FlowCase, rng: RandomStream) {
        guard let first = firstPoll(c.positive, rng: rng) else { return }
        ledger.count(.cwaRegistrationToken, at: c.positive.testedAt)
        for poll in stride(from: first, to: c.positive.resultAt, by: Int(pollInterval)) {
            ledger.count(.cwaTestResult, at: poll)
            if ledger.hourIndex(poll) != nil { ledger.polls += 1 }
        }
    }

    package func resultDelivered(_ c: FlowCase, now: SimTime, rng: RandomStream) {
        guard let first = firstPoll(c.positive, rng: rng) else {
            ledger.funnel.teleTAN += 1
            context.schedule(.cwaTeleTAN, c, at: now + context.hours(parameters.hotlineDelayHours.draw(rng)))
            return
        }
        let p = c.positive
        state[c.index, default: CaseState()].registrationToken = verification.register(guid: UInt64(p.person), resultAt: p.resultAt)
        // The polls before the result were counted when they happened; this one finds it.
        let late = max(0, p.resultAt - first)
        context.schedule(.cwaResultPolled, c, at: first + (late + pollInterval - 1) / pollInterval * pollInterval)
    }

    package func handle(_ step: PipelineStep, _ c: FlowCase, now: SimTime) {
        switch step {
        case .cwaResultPolled: resultPolled(c, now: now)
        case .cwaTeleTAN: teleTAN(c, now: now)
        case .cwaUpload: upload(c, now: now)
        case .cwaRepeatUpload: repeatUpload(c, now: now)
        case .cwaSecondUpload: secondUpload(c, now: now)
        default: preconditionFailure("\(step.name) is not a CWA step")
        }
    }

    private func resultPolled(_ c: FlowCase, now: SimTime) {
        ledger.count(.cwaTestResult, at: now)
        ledger.polls += 1
        guard let token = state[c.index]?.registrationToken, verification.resultAvailable(token: token, at: now) else { return }
        ledger.funnel.resultInApp += 1
        let rng = context.stream(c, .cwaResultPolled)
        guard context.consents(rng) else { return }
        context.schedule(.cwaUpload, c, at: now + context.hours(context.health.consentDelayHours.draw(rng)))
    }

    private func teleTAN(_ c: FlowCase, now: SimTime) {
        ledger.count(.cwaTeleTAN, at: now)
        let teleTAN = verification.issueTeleTAN()
        ledger.count(.cwaRegistrationToken, at: now)
        state[c.index, default: CaseState()].registrationToken = verification.register(teleTAN: teleTAN, at: now)
        if state[c.index]!.tokenLost {
            // The user had agreed before the app lost its token: it asks for a TAN at once.
            context.schedule(.cwaUpload, c, at: now + 60 + Int64(context.stream(c, .cwaTeleTAN, salt: 1).uniformInt(600)))
            return
        }
        ledger.funnel.resultInApp += 1
        let rng = context.stream(c, .cwaTeleTAN)
        guard context.consents(rng) else { return }
        context.schedule(.cwaUpload, c, at: now + 60 + Int64(rng.uniformInt(600)))
    }

    private func upload(_ c: FlowCase, now: SimTime) {
        if losesToken(c, now: now) { return }
        guard let token = state[c.index]?.registrationToken else { return }
        // A TAN from a failed attempt is kept and used again (the app stores it until the
        // submission succeeds: cwa-app-android SubmissionService, June 2020).
        let tan: UInt64
        if let kept = state[c.index]?.tan {
            tan = kept
        } else {
            ledger.count(.cwaTAN, at: now)
            guard let issued = verification.issueTAN(token: token, at: now) else { return }
            state[c.index, default: CaseState()].tan = issued
            ledger.funnel.verified += 1
            tan = issued
        }
        let rng = context.stream(c, .cwaUpload)
        let day = SimClock.dayNumber(now)
        let n = Int64(min(13, parameters.effectiveMaxKeysPerUpload))
        var keys = context.payloads.caseKeys(c, days: (day - n)...(day - 1), uploadDay: day)
        if rng.bernoulli(p: parameters.faultyUploadShare) { UploadPayloads.corrupt(&keys, rng: rng, now: now) }
        if context.failures.attemptFails(c, .cwaUpload, now: now, context: context) { return }
        ledger.count(.cwaSubmission, at: now)
        ledger.count(.cwaTANVerify, at: now)
        _ = verification.verify(tan: tan)
        guard context.server.submitCase(keys, of: c, now: now) else { return }
        context.failures.succeeded(c, now: now)
        if rng.bernoulli(p: parameters.credentialReuseShare) { context.schedule(.cwaRepeatUpload, c, at: now + 30) }
        let nextMidnight = SimClock.startOfDay(now) + SimDuration.day
        context.schedule(.cwaSecondUpload, c, at: nextMidnight + context.hours(rng.exponential(mean: 2)))
    }

    /// Before its first upload the app may have lost its registration token (reinstalled, reset):
    /// the user calls the hotline for a teleTAN, counted as a teleTAN in the funnel.
    private func losesToken(_ c: FlowCase, now: SimTime) -> Bool {
        guard parameters.cwaTokenLossShare > 0, state[c.index]?.tokenLossDrawn != true else { return false }
        state[c.index, default: CaseState()].tokenLossDrawn = true
        let rng = context.stream(c, .cwaUpload, salt: 1)
        guard rng.bernoulli(p: parameters.cwaTokenLossShare) else { return false }
        state[c.index]!.registrationToken = nil
        state[c.index]!.tokenLost = true
        ledger.funnel.teleTAN += 1
        ledger.tokenLossTeleTANs += 1
        context.schedule(.cwaTeleTAN, c, at: now + context.hours(parameters.hotlineDelayHours.draw(rng)))
        return true
    }

    private func repeatUpload(_ c: FlowCase, now: SimTime) {
        guard let tan = state[c.index]?.tan else { return }
        ledger.count(.cwaSubmission, at: now)
        ledger.count(.cwaTANVerify, at: now)
        if verification.verify(tan: tan) == .alreadyUsed { ledger.authFailed(.tanAlreadyUsed) }
    }

    /// After midnight the upload day's key is no longer in use; the app submits it with a new TAN.
    private func secondUpload(_ c: FlowCase, now: SimTime) {
        guard let token = state[c.index]?.registrationToken else { return }
        ledger.count(.cwaTAN, at: now)
        guard let tan = verification.issueTAN(token: token, at: now) else { return }
        ledger.count(.cwaSubmission, at: now)
        ledger.count(.cwaTANVerify, at: now)
        guard verification.verify(tan: tan) == .valid else { return }
        let day = SimClock.dayNumber(now) - 1
        context.server.submit(context.payloads.caseKeys(c, days: day...day, uploadDay: day), uploader: c.positive.person, phone: c.phone,
                              now: now, national: false)
    }
}
