import GSL

/// The counts a regression check compares: false positives among notified phones and
/// false negatives among close contacts with the app on both phones.
public struct DetectionCounts: Sendable, Equatable, Codable {
    public var notified: Int
    public var falsePositives: Int
    public var closeContactsWithApp: Int
    public var falseNegatives: Int

    public init(notified: Int, falsePositives: Int, closeContactsWithApp: Int, falseNegatives: Int) {
        self.notified = notified
        self.falsePositives = falsePositives
        self.closeContactsWithApp = closeContactsWithApp
        self.falseNegatives = falseNegatives
    }

    /// From a run's detection summary.
    public init(summary: DetectionSummary) {
        self.init(notified: summary.notified, falsePositives: summary.falsePositives,
                  closeContactsWithApp: summary.closeContactsWithApp, falseNegatives: summary.falseNegatives)
    }
}

/// One compared rate: baseline, now, and a one-sided two-proportion test of "now is worse".
public struct RateComparison: Sendable, Equatable {
    public enum Verdict: String, Sendable { case ok, regression, improved, noData = "no data" }
    public var name: String
    public var baseline: (x: Int, n: Int)
    public var now: (x: Int, n: Int)
    public var pValue: Double
    public var verdict: Verdict

    public static func == (a: Self, b: Self) -> Bool {
        a.name == b.name && a.baseline == b.baseline && a.now == b.now && a.pValue == b.pValue && a.verdict == b.verdict
    }

    public var baselineRate: Double { baseline.n > 0 ? Double(baseline.x) / Double(baseline.n) : .nan }
    public var nowRate: Double { now.n > 0 ? Double(now.x) / Double(now.n) : .nan }

    /// Regression when now's rate is significantly higher (one-sided, pooled z-test, GSL).
    public static func compare(_ name: String, baseline: (Int, Int), now: (Int, Int), alpha: Double) -> RateComparison {
        guard baseline.1 > 0, now.1 > 0 else {
            return RateComparison(name: name, baseline: baseline, now: now, pValue: .nan, verdict: .noData)
        }
        let t = Proportion.twoProportionTest(x1: now.0, n1: now.1, x2: baseline.0, n2: baseline.1)
        let verdict: Verdict = t.pGreater < alpha ? .regression : (1 - t.pGreater) < alpha && t.z < 0 ? .improved : .ok
        return RateComparison(name: name, baseline: baseline, now: now, pValue: t.pGreater, verdict: verdict)
    }
}

public enum DetectionRegression {
    /// False-positive share of notified phones and false-negative share of close contacts.
    public static func compare(baseline: DetectionCounts, now: DetectionCounts, alpha: Double) -> [RateComparison] {
        [RateComparison.compare("false_positive_rate", baseline: (baseline.falsePositives, baseline.notified),
                                now: (now.falsePositives, now.notified), alpha: alpha),
         RateComparison.compare("false_negative_rate", baseline: (baseline.falseNegatives, baseline.closeContactsWithApp),
                                now: (now.falseNegatives, now.closeContactsWithApp), alpha: alpha)]
    }
}
