import EventEngine

/// Every request the backend servers receive, by endpoint.
public enum Endpoint: Int, CaseIterable, Sendable {
    case cwaRegistrationToken, cwaTestResult, cwaTAN, cwaTeleTAN, cwaTANVerify, cwaSubmission
    case cwaFakeRegistrationToken, cwaFakeTAN, cwaFakeSubmission
    case immuniAuthoriseOTP, immuniCheckOTP, immuniUpload, immuniDummyCheckOTP, immuniDummyUpload

    public var path: String {
        switch self {
        case .cwaRegistrationToken: return "POST /version/v1/registrationToken"
        case .cwaTestResult: return "POST /version/v1/testresult"
        case .cwaTAN: return "POST /version/v1/tan"
        case .cwaTeleTAN: return "POST /version/v1/tan/teletan"
        case .cwaTANVerify: return "POST /version/v1/tan/verify"
        case .cwaSubmission: return "POST /version/v1/diagnosis-keys"
        case .cwaFakeRegistrationToken: return "POST /version/v1/registrationToken (cwa-fake)"
        case .cwaFakeTAN: return "POST /version/v1/tan (cwa-fake)"
        case .cwaFakeSubmission: return "POST /version/v1/diagnosis-keys (cwa-fake)"
        case .immuniAuthoriseOTP: return "POST /v1/otp"
        case .immuniCheckOTP: return "POST /v1/ingestion/check-otp"
        case .immuniUpload: return "POST /v1/ingestion/upload"
        case .immuniDummyCheckOTP: return "POST /v1/ingestion/check-otp (Immuni-Dummy-Data)"
        case .immuniDummyUpload: return "POST /v1/ingestion/upload (Immuni-Dummy-Data)"
        }
    }

    public var flavor: BackendFlavor { rawValue <= Endpoint.cwaFakeSubmission.rawValue ? .cwa : .immuni }
}

/// Authentication failures (HTTP 401/403), by reason.
public enum AuthFailure: String, CaseIterable, Sendable {
    case tanAlreadyUsed = "tan_already_used"
    case otpExpired = "otp_expired"
    case otpWrong = "otp_wrong"
    case otpReused = "otp_reused"
}

/// The funnel from index case to published keys.
public struct Funnel: Sendable, Equatable {
    public var indexCases = 0
    public var appUsers = 0
    public var resultInApp = 0
    public var consented = 0
    public var verified = 0
    public var uploaded = 0
    public var published = 0
    public var lostNoConsent = 0
    public var lostVerificationDropout = 0
    public var lostOTPGaveUp = 0
    public var lostRejected = 0
    public var teleTAN = 0
    /// Gave up after the last failed upload attempt; nil (absent) unless `backend.upload_failure.share` > 0.
    public var lostUploadFailed: Int? = nil
}

/// One hourly.csv row of the backend.
package struct BackendHour: Sendable {
    package var requests: Int64 = 0
    package var realUploads: Int64 = 0
    package var dummyUploads: Int64 = 0
    package var nationalUploads: Int64 = 0
    package var rejectedUploads: Int64 = 0
    package var keysReceived: Int64 = 0
    package var keysRejected: Int64 = 0
    package var keysPublished: Int64 = 0
    package var packages: Int64 = 0
    package var packageBytes: Int64 = 0
    package var uploadBytes: Int64 = 0

    package static let columns = ["requests", "uploads_real", "uploads_dummy", "uploads_national", "uploads_rejected", "keys_received",
                          "keys_rejected", "keys_published", "packages", "package_bytes", "upload_bytes"]

    package var values: [Int64] {
        [requests, realUploads, dummyUploads, nationalUploads, rejectedUploads, keysReceived, keysRejected, keysPublished, packages,
         packageBytes, uploadBytes]
    }

    package static func + (a: BackendHour, b: BackendHour) -> BackendHour {
        let v = zip(a.values, b.values).map { $0 + $1 }
        return BackendHour(requests: v[0], realUploads: v[1], dummyUploads: v[2], nationalUploads: v[3], rejectedUploads: v[4],
                           keysReceived: v[5], keysRejected: v[6], keysPublished: v[7], packages: v[8], packageBytes: v[9], uploadBytes: v[10])
    }
}

/// Everything the backend counts, shared by the flows, the upload server and the aggregated
/// traffic: the funnel, requests and failures in total, and each simulated hour's row.
package final class BackendLedger {
    package let start: SimTime
    package var funnel = Funnel()
    package var requests = [Int64](repeating: 0, count: Endpoint.allCases.count)
    package var rejections = [Int64](repeating: 0, count: RejectionReason.allCases.count)
    package var authFailures = [Int64](repeating: 0, count: AuthFailure.allCases.count)
    package var keysDroppedCurrentDay: Int64 = 0
    /// Immuni: keys older than two days before symptoms_started_on, dropped by the ingestion service.
    package var keysDroppedBeforeOnset: Int64 = 0
    package var paddingKeys: Int64 = 0
    /// Keys from other countries' backends (EFGS) handed to the publisher.
    package var federationKeys: Int64 = 0
    package var otpTyposCaught: Int64 = 0
    package var otpTyposUncaught: Int64 = 0
    package var polls: Int64 = 0
    /// CWA: teleTANs asked for at the hotline because the app lost its registration token.
    package var tokenLossTeleTANs: Int64 = 0
    package var hourly: [BackendHour]

    package init(start: SimTime, days: Int) {
        self.start = start
        hourly = Array(repeating: BackendHour(), count: days * 24)
    }

    /// The simulated hour `t` falls in; nil before the start or after the end.
    package func hourIndex(_ t: SimTime) -> Int? {
        guard t >= start else { return nil }
        let h = Int((t - start) / SimDuration.hour)
        return h < hourly.count ? h : nil
    }

    /// Counts requests inside the simulated window (a test registered before the start is not).
    package func count(_ endpoint: Endpoint, at t: SimTime, _ n: Int64 = 1) {
        guard let h = hourIndex(t) else { return }
        requests[endpoint.rawValue] += n
        hourly[h].requests += n
    }

    package func authFailed(_ reason: AuthFailure) { authFailures[reason.index] += 1 }
}

extension RejectionReason { var index: Int { RejectionReason.allCases.firstIndex(of: self)! } }
extension AuthFailure { var index: Int { AuthFailure.allCases.firstIndex(of: self)! } }
