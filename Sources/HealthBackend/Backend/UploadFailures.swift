import EventEngine
import GSL
import SimulationCore

/// A case's key upload lost in the network and tried again (`backend.upload_failure`): each
/// attempt of the first upload fails with `uploadFailureShare`; the user tries again after
/// `uploadRetryDelayMinutes`, at most `uploadMaxAttempts` times in all, and is lost after the
/// last. A lost request never reaches the server, so the server counts nothing for it.
///
/// Draws come from the case's stream of the upload step with salts 16 + attempt, which no other
/// draw uses, so the rest of the case's path is drawn as without failures.
package final class UploadFailures {
    package let share: Double
    package let retryDelayMinutes: Delay
    package let maxAttempts: Int
    /// Attempts so far, by case index.
    private var attempts: [Int32: Int] = [:]
    /// First attempt of each case that has failed at least once, by case index.
    private var firstFailedAt: [Int32: SimTime] = [:]
    package private(set) var attemptsTotal: Int64 = 0
    package private(set) var failed: Int64 = 0
    package private(set) var succeededAfterFailure: Int64 = 0
    package private(set) var lost: Int64 = 0
    /// Hours from the first (failed) attempt to the accepted one, of uploads that succeeded late.
    package private(set) var lateHours: [Double] = []

    package init(parameters: BackendParameters) {
        share = parameters.uploadFailureShare
        retryDelayMinutes = parameters.uploadRetryDelayMinutes
        maxAttempts = parameters.uploadMaxAttempts
    }

    package var enabled: Bool { share > 0 }

    package static let firstSalt = 16

    /// Whether this attempt of the case's first upload at `now` is lost. On a loss the retry is
    /// scheduled as the same step (or the user counted as lost after the last attempt).
    package func attemptFails(_ c: FlowCase, _ step: PipelineStep, now: SimTime, context: FlowContext) -> Bool {
        guard enabled else { return false }
        let attempt = attempts[c.index, default: 0]
        attempts[c.index] = attempt + 1
        attemptsTotal += 1
        let rng = context.stream(c, step, salt: Self.firstSalt + min(attempt, 200))
        guard rng.bernoulli(p: share) else { return false }
        failed += 1
        if firstFailedAt[c.index] == nil { firstFailedAt[c.index] = now }
        if attempt + 1 >= maxAttempts {
            lost += 1
            context.ledger.funnel.lostUploadFailed = (context.ledger.funnel.lostUploadFailed ?? 0) + 1
        } else {
            context.schedule(step, c, at: now + max(1, Int64(retryDelayMinutes.draw(rng) * 60)))
        }
        return true
    }

    /// The server accepted the case's upload at `now`.
    package func succeeded(_ c: FlowCase, now: SimTime) {
        guard let first = firstFailedAt.removeValue(forKey: c.index) else { return }
        succeededAfterFailure += 1
        lateHours.append(Double(now - first) / Double(SimDuration.hour))
    }

    package func summary() -> UploadFailureSummary? {
        guard enabled else { return nil }
        let late = Statistics.sorted(lateHours)
        return UploadFailureSummary(attempts: attemptsTotal, failed: failed, succeededAfterFailure: succeededAfterFailure, lost: lost,
                                    failedShare: IntervalSummary(Proportion.clopperPearson(successes: Int(failed),
                                                                                          trials: max(Int(attemptsTotal), 1))),
                                    delayHoursMedian: Quantile(sorted: late, 0.5), delayHoursP90: Quantile(sorted: late, 0.9))
    }
}

/// summary.json's `backend.upload_failures` (only with `backend.upload_failure.share` > 0).
public struct UploadFailureSummary: Equatable, Sendable, Encodable {
    /// Attempts of cases' first uploads, failed or not.
    public var attempts: Int64
    public var failed: Int64
    /// Cases whose upload the server accepted after at least one failed attempt.
    public var succeededAfterFailure: Int64
    /// Cases who gave up after the last failed attempt.
    public var lost: Int64
    public var failedShare: IntervalSummary
    /// Hours from the first failed attempt to the accepted one.
    public var delayHoursMedian: Quantile
    public var delayHoursP90: Quantile

    package enum CodingKeys: String, CodingKey {
        case attempts, failed, succeededAfterFailure = "succeeded_after_failure", lost, failedShare = "failed_share"
        case delayHoursMedian = "delay_hours_median", delayHoursP90 = "delay_hours_p90"
    }
}
