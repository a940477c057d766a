import EventEngine
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

/// One app's way from a delivered positive result to uploaded keys — verification, uploads —
/// and what its servers do each hour. `KeySubmissionPipeline` holds one: `CWAFlow` or `ImmuniFlow`.
package protocol KeySubmissionFlow: AnyObject {
    /// What an app user's test does before its result (CWA: registration and polling), counted
    /// in the hours it happens when the case is drawn ahead; `rng` is the case's `.testResult`
    /// stream, which `resultDelivered` then draws from in the same order.
    func requestsBeforeResult(_ c: FlowCase, rng: RandomStream)
    /// An app user's positive result is delivered; `rng` is the case's `.testResult` stream.
    func resultDelivered(_ c: FlowCase, now: SimTime, rng: RandomStream)
    /// One of the flow's own steps, at the time it was scheduled for.
    func handle(_ step: PipelineStep, _ c: FlowCase, now: SimTime)
    /// Full hour `t` after the start: publishes what the past hour made distributable.
    func publish(hourEnd t: SimTime) throws
    /// Full hour `t`: the servers drop expired credentials.
    func purge(before t: SimTime)
    /// The requests of one dummy session from a healthy phone.
    var dummySessionEndpoints: [Endpoint] { get }
    /// The endpoint a key upload reaches.
    var uploadEndpoint: Endpoint { get }
    /// The days whose keys a full upload on `day` carries (uploads from the rest of the country).
    func fullUploadDays(on day: Int64) -> ClosedRange<Int64>
}

/// A case on its way through a flow: its index (what steps are scheduled with), its dates and
/// its app phone.
package struct FlowCase {
    package let index: Int32
    package let positive: PositiveCase
    package let phone: Int32
}

/// What both flows work with: the settings, the backend's counters, the app's payloads, the
/// upload server and the engine's schedule.
package struct FlowContext {
    package let health: HealthParameters
    package let parameters: BackendParameters
    package let seed: UInt64
    package let ledger: BackendLedger
    package let payloads: UploadPayloads
    package let server: UploadServer
    /// Upload attempts lost in the network and their retries.
    package let failures: UploadFailures
    package let scheduleStep: (PipelineStep, Int32, SimTime) -> Void

    package var publisher: KeyPublisher { server.publisher }

    package func schedule(_ step: PipelineStep, _ c: FlowCase, at t: SimTime) { scheduleStep(step, c.index, t) }

    /// The case's draws for `step`: stream ("backend.case", person·2¹⁶ + step·2⁸ + salt), so no
    /// draw depends on event interleaving.
    package func stream(_ c: FlowCase, _ step: PipelineStep, salt: Int = 0) -> RandomStream {
        RandomStream(seed: seed, stream: "backend.case", index: (UInt64(c.positive.person) << 16) | UInt64(step.rawValue << 8 | salt),
                     generator: .taus2)
    }

    /// The user agrees to upload and does not drop out of verification.
    package func consents(_ rng: RandomStream) -> Bool {
        guard rng.bernoulli(p: health.uploadConsentShare) else {
            ledger.funnel.lostNoConsent += 1
            return false
        }
        ledger.funnel.consented += 1
        if rng.bernoulli(p: health.verificationDropoutShare) {
            ledger.funnel.lostVerificationDropout += 1
            return false
        }
        return true
    }

    /// A delay of `h` hours in engine time, at least one tick.
    package func hours(_ h: Double) -> Int64 { max(1, Int64(h * Double(SimDuration.hour))) }
}
