import GSL
import EventEngine
import SimulationCore

/// The reproduction number as an analyst would estimate it from what the health system sees:
/// Cori et al. (2013, Am J Epidemiol 178:1505), the method of EpiEstim, applied to daily
/// positive tests. With incidence I and the discretised serial interval w, the total
/// infectiousness is Λ_t = Σ_k I_{t−k} w_k; over a window W ending at t the posterior of R_t is
/// gamma with shape a + Σ_W I and rate 1/b + Σ_W Λ (prior a = 1, b = 5, as in the paper). The
/// estimate uses nothing of the simulation's ground truth; how often its interval covers the
/// true case reproduction number is then measured (docs/model/epidemic.md).
struct CoriEstimator {
    struct Estimate: Equatable {
        var mean: Double
        var lower: Double
        var upper: Double
    }

    /// Posterior coefficient of variation above which no estimate is given (Cori et al.: 0.3).
    static let maximumCV = 0.3
    let window: Int
    /// w_0 … w_n: serial interval mass per whole day (w_0 = 0).
    let weights: [Double]
    let priorShape = 1.0, priorScale = 5.0

    init(serialInterval: GammaProfile, window: Int) {
        self.window = max(1, window)
        // Day k stands for (k − 0.5, k + 0.5]; the mass below 0.5 days goes to day 1 (w_0 = 0).
        let days = Int(serialInterval.quantile(0.999).rounded(.up)) + 1
        var w = [0.0] + (1...max(1, days)).map { k in serialInterval.cdf(Double(k) + 0.5) - serialInterval.cdf(Double(k) - 0.5) }
        w[1] += serialInterval.cdf(0.5)
        let total = w.reduce(0, +)
        weights = w.map { $0 / total }
    }

    /// R_t for each day of `incidence` (nil before a full window or while the posterior is too wide).
    func estimates(_ incidence: [Int], confidence: Double = 0.95) -> [Estimate?] {
        let lambda = incidence.indices.map { t in
            (1..<weights.count).reduce(0.0) { sum, k in t - k >= 0 ? sum + Double(incidence[t - k]) * weights[k] : sum }
        }
        return incidence.indices.map { t in
            guard t >= window else { return nil }
            let cases = (t - window + 1...t).reduce(0) { $0 + incidence[$1] }
            let infectiousness = (t - window + 1...t).reduce(0.0) { $0 + lambda[$1] }
            let shape = priorShape + Double(cases), rate = 1 / priorScale + infectiousness
            guard infectiousness > 0, 1 / shape.squareRoot() <= Self.maximumCV else { return nil }
            let profile = GammaProfile(shape: shape, scale: 1 / rate)
            let tail = (1 - confidence) / 2
            return Estimate(mean: shape / rate, lower: profile.bisectedQuantile(tail), upper: profile.bisectedQuantile(1 - tail))
        }
    }
}

/// reproduction.csv and summary.json → `epidemic.reproduction`: the true case reproduction
/// number by infection day (from who infected whom) beside the Cori estimate from positives,
/// and how often the estimate's interval covers the truth `reporting_lag_days` earlier.
struct ReproductionReport {
    struct Row {
        var infections: Int
        var secondary: Int
        /// Secondary infections per infection of the day, over the `window` days ending there;
        /// nil while any of them could still infect (censored by the run's end) or without infections.
        var caseR: Double?
        var windowCaseR: Double?
        var positives: Int
        var estimate: CoriEstimator.Estimate?
    }

    let rows: [Row]
    let parameters: ReproductionEstimateParameters

    init(days: [EpidemicLedger.Day], runEnd: SimTime, parameters: ReproductionEstimateParameters) {
        self.parameters = parameters
        let estimator = CoriEstimator(serialInterval: GammaProfile(mean: parameters.serialIntervalMeanDays,
                                                                   sd: parameters.serialIntervalSDDays),
                                      window: parameters.windowDays)
        let estimates = estimator.estimates(days.map(\.positives))
        let final = days.map { $0.newInfections > 0 && $0.lastRecovery <= runEnd }
        let w = max(1, parameters.windowDays)
        rows = days.indices.map { d in
            let day = days[d]
            var windowR: Double? = nil
            if d >= w - 1, (d - w + 1...d).allSatisfy({ final[$0] || days[$0].newInfections == 0 }) {
                let infections = (d - w + 1...d).reduce(0) { $0 + days[$1].newInfections }
                let secondary = (d - w + 1...d).reduce(0) { $0 + days[$1].secondary }
                if infections > 0 { windowR = Double(secondary) / Double(infections) }
            }
            return Row(infections: day.newInfections, secondary: day.secondary,
                       caseR: final[d] ? Double(day.secondary) / Double(day.newInfections) : nil, windowCaseR: windowR,
                       positives: day.positives, estimate: estimates[d])
        }
    }

    private static func cell(_ x: Double?) -> ResultTable.Cell { x.map { .number($0) } ?? .text(Quantile.notAvailable) }

    static let columns = ["day", "date", "infections", "secondary_infections", "case_r", "case_r_window", "positives",
                          "r_estimate", "r_ci_lower", "r_ci_upper"]

    func table(start: SimTime) -> ResultTable {
        let rows = rows
        return .computed(columns: Self.columns, count: rows.count) { d in
            let r = rows[d]
            return [.integer(Int64(d)), .text(CivilCalendar.isoDateString(start + Int64(d) * SimDuration.day)),
                    .integer(Int64(r.infections)), .integer(Int64(r.secondary)), Self.cell(r.caseR), Self.cell(r.windowCaseR),
                    .integer(Int64(r.positives)), Self.cell(r.estimate?.mean), Self.cell(r.estimate?.lower), Self.cell(r.estimate?.upper)]
        }
    }

    /// Days where both the estimate and the lagged truth exist, and how often the interval covers it.
    var summary: ReproductionSummary {
        var covered = 0, compared = 0, errors: [Double] = []
        for t in rows.indices {
            let s = t - parameters.reportingLagDays
            guard let estimate = rows[t].estimate, rows.indices.contains(s), let truth = rows[s].windowCaseR else { continue }
            compared += 1
            if estimate.lower <= truth && truth <= estimate.upper { covered += 1 }
            errors.append(abs(estimate.mean - truth))
        }
        let estimable = rows.filter { $0.estimate != nil }.count
        return ReproductionSummary(windowDays: parameters.windowDays, serialIntervalMeanDays: parameters.serialIntervalMeanDays,
                                   serialIntervalSDDays: parameters.serialIntervalSDDays, reportingLagDays: parameters.reportingLagDays,
                                   daysEstimated: estimable, daysCompared: compared, truthCovered: covered,
                                   meanAbsoluteError: errors.isEmpty ? nil : errors.reduce(0, +) / Double(errors.count))
    }
}

/// summary.json → `epidemic.reproduction`.
public struct ReproductionSummary: Equatable, Sendable, Encodable {
    public var method = "Cori et al. 2013 on daily positives"
    public var windowDays: Int
    public var serialIntervalMeanDays: Double
    public var serialIntervalSDDays: Double
    public var reportingLagDays: Int
    public var daysEstimated: Int
    /// Days with an estimate and a final true case R `reporting_lag_days` earlier.
    public var daysCompared: Int
    /// Of those, days whose 95% interval contains the truth. Consecutive days share most of
    /// their data, so this is a share, not independent trials: no interval is given for it.
    public var truthCovered: Int
    public var meanAbsoluteError: Double?

    package enum CodingKeys: String, CodingKey {
        case method, windowDays = "window_days", serialIntervalMeanDays = "serial_interval_mean_days"
        case serialIntervalSDDays = "serial_interval_sd_days", reportingLagDays = "reporting_lag_days"
        case daysEstimated = "days_estimated", daysCompared = "days_compared", truthCovered = "truth_covered"
        case meanAbsoluteError = "mean_absolute_error"
    }
}
