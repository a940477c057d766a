import SimulationCore
/// summary.json's `health` section: index cases and the funnel to published keys.
public struct HealthSummary: Equatable, Sendable, Encodable {
    public var indexCases: Int
    public var resultsDelivered: Int
    public var appUserShare: IntervalSummary
    public var funnel: Funnel
    public var uploadShareOfAppUsers: IntervalSummary
    public var infectionToTestDaysMedian: Quantile
    public var testToPublicationHoursMedian: Quantile
    public var testToPublicationHoursP90: Quantile
    public var infectionToPublicationDaysMedian: Quantile
    public var infectionToPublicationDaysP90: Quantile

    package enum CodingKeys: String, CodingKey {
        case indexCases = "index_cases", resultsDelivered = "results_delivered", appUserShare = "app_user_share", funnel
        case uploadShareOfAppUsers = "upload_share_of_app_users", infectionToTestDaysMedian = "infection_to_test_days_median"
        case testToPublicationHoursMedian = "test_to_publication_hours_median", testToPublicationHoursP90 = "test_to_publication_hours_p90"
        case infectionToPublicationDaysMedian = "infection_to_publication_days_median"
        case infectionToPublicationDaysP90 = "infection_to_publication_days_p90"
    }
}

/// The funnel as `health.funnel` shows it (the index cases are the section's own figure).
extension Funnel: Encodable {
    package enum CodingKeys: String, CodingKey {
        case appUsers = "app_users", resultInApp = "result_in_app", teleTAN = "teletan", consented, verified, uploaded, published
        case lostNoConsent = "lost_no_consent", lostVerificationDropout = "lost_verification_dropout"
        case lostOTPGaveUp = "lost_otp_gave_up", lostRejected = "lost_upload_rejected", lostUploadFailed = "lost_upload_failed"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(appUsers, forKey: .appUsers)
        try c.encode(resultInApp, forKey: .resultInApp)
        try c.encode(teleTAN, forKey: .teleTAN)
        try c.encode(consented, forKey: .consented)
        try c.encode(verified, forKey: .verified)
        try c.encode(uploaded, forKey: .uploaded)
        try c.encode(published, forKey: .published)
        try c.encode(lostNoConsent, forKey: .lostNoConsent)
        try c.encode(lostVerificationDropout, forKey: .lostVerificationDropout)
        try c.encode(lostOTPGaveUp, forKey: .lostOTPGaveUp)
        try c.encode(lostRejected, forKey: .lostRejected)
        try c.encodeIfPresent(lostUploadFailed, forKey: .lostUploadFailed)
    }
}
