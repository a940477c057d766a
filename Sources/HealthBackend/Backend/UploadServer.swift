import EventEngine
import GAEN
import GSL

/// The servers' side of a key upload: counts the request body, validates the keys, drops what
/// the server drops, adds padding keys and hands the rest to the publisher.
package final class UploadServer {
    package let parameters: BackendParameters
    package let seed: UInt64
    package let ledger: BackendLedger
    package let payloads: UploadPayloads
    package let publisher: KeyPublisher
    private let validator: UploadValidator
    /// Accepted first uploads of app users' keys, in upload order (P6 discloses at the same moments).
    package private(set) var caseUploads: [CaseUpload] = []
    /// Sees every counted upload body (tests).
    package var bodyObserver: ((_ body: [UInt8], _ national: Bool) -> Void)?

    package init(parameters: BackendParameters, seed: UInt64, ledger: BackendLedger, payloads: UploadPayloads, publisher: KeyPublisher) {
        self.parameters = parameters
        self.seed = seed
        self.ledger = ledger
        self.payloads = payloads
        self.publisher = publisher
        validator = UploadValidator(flavor: parameters.flavor, maxKeys: parameters.effectiveMaxKeysPerUpload)
    }

    /// A case's first upload; counts it in the funnel as uploaded or rejected. `symptomsStartedOn`:
    /// Immuni's date from the OTP authorisation (UTC day number).
    package func submitCase(_ keys: [SubmittedKey], of c: FlowCase, now: SimTime, symptomsStartedOn: Int64? = nil) -> Bool {
        guard submit(keys, uploader: c.positive.person, phone: c.phone, now: now, national: false,
                     symptomsStartedOn: symptomsStartedOn) else {
            ledger.funnel.lostRejected += 1
            return false
        }
        caseUploads.append(CaseUpload(positiveCase: c.positive, phone: c.phone, at: now))
        ledger.funnel.uploaded += 1
        return true
    }

    /// Validates an upload by `uploader` (−1: from the rest of the country) from app phone
    /// `phone` (−1: none) and hands accepted keys to the publisher; false if rejected.
    @discardableResult
    package func submit(_ keys: [SubmittedKey], uploader: Int32, phone: Int32, now: SimTime, national: Bool,
                        symptomsStartedOn: Int64? = nil) -> Bool {
        let h = ledger.hourIndex(now)
        if let h {
            if national { ledger.hourly[h].nationalUploads += 1 } else { ledger.hourly[h].realUploads += 1 }
            let body = payloads.body(keys, uploader: uploader, phone: phone, now: now)
            ledger.hourly[h].uploadBytes += Int64(body.count)
            bodyObserver?(body, national)
        }
        if let reason = validator.validate(keys, at: now) {
            ledger.rejections[reason.index] += 1
            if let h {
                ledger.hourly[h].rejectedUploads += 1
                ledger.hourly[h].keysRejected += Int64(keys.count)
            }
            return false
        }
        var accepted = keys
        if parameters.flavor == .immuni {
            // Immuni's ingestion drops the key still in use today.
            let today = UInt32(SimClock.dayNumber(now) * 144)
            accepted.removeAll { $0.rollingStartIntervalNumber >= today }
            ledger.keysDroppedCurrentDay += Int64(keys.count - accepted.count)
            if parameters.immuniKeysFromOnset, let onset = symptomsStartedOn { keepRiskWindow(&accepted, symptomsStartedOn: onset) }
        }
        var published = accepted.compactMap { $0.diagnosisKey }.map { PublishedKey(key: $0, uploader: uploader, uploadedAt: now) }
        if parameters.keyPaddingMultiplier > 1 {
            let rng = RandomStream(seed: seed, stream: "backend.padding", index: UInt64(bitPattern: now) << 20 | UInt64(UInt32(bitPattern: uploader)),
                                   generator: .taus2)
            for k in published {
                for _ in 1..<parameters.keyPaddingMultiplier {
                    var pad = k
                    pad.key.temporaryExposureKey.keyData = Bytes16(bytes: rng.bytes(16))!
                    pad.uploader = -1
                    published.append(pad)
                    ledger.paddingKeys += 1
                }
            }
        }
        if let h { ledger.hourly[h].keysReceived += Int64(published.count) }
        publisher.add(published, now: now)
        return true
    }
}

extension UploadServer {
    /// Immuni's ingestion: keys of days from `immuniDaysBeforeSymptoms` before symptom onset are
    /// at risk and get the highest transmission risk level (8); older keys are dropped.
    func keepRiskWindow(_ keys: inout [SubmittedKey], symptomsStartedOn onset: Int64) {
        let firstDay = onset - Int64(parameters.immuniDaysBeforeSymptoms)
        let before = keys.count
        keys.removeAll { Int64($0.rollingStartIntervalNumber / 144) < firstDay }
        ledger.keysDroppedBeforeOnset += Int64(before - keys.count)
        for i in keys.indices { keys[i].transmissionRiskLevel = 8 }
    }
}

/// A positive case's accepted key upload.
public struct CaseUpload: Sendable, Hashable {
    public var positiveCase: PositiveCase
    public var phone: Int32
    public var at: SimTime
}
