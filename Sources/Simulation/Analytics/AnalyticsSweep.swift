import EventEngine
import GSL

/// The p_OWOE trade-off: for each sampling rate, the same phones and detections (common random
/// numbers: every draw is keyed by entity, so only the sampling outcome changes) give the
/// Analytics Service's load and the working-apps estimate's error. Attacks are off.
public enum AnalyticsSweep {
    public struct Row: Sendable, Equatable {
        public var pWithoutExposure: Double
        public var requests: Int
        public var requestsPerPhoneMonth: Double
        public var peakRequestsPerHour: Int
        /// Mean over months of |relative error| of the national working-apps estimate, and its worst month.
        public var nationalMeanAbsError: Double
        public var nationalWorstAbsError: Double
        /// Mean over months and regions of |relative error|.
        public var regionalMeanAbsError: Double
        /// Half-width of the national 95% interval relative to the truth, mean over months.
        public var nationalRelativeHalfWidth: Double
    }

    public static let columns = ["p_owoe", "requests", "requests_per_phone_month", "peak_requests_per_hour",
                                 "national_mean_abs_error", "national_worst_abs_error", "regional_mean_abs_error",
                                 "national_ci_relative_half_width"]

    public static func run(parameters: AnalyticsParameters, seed: UInt64, start: SimTime, days: Int, phoneOS: [OperatingSystem],
                           availability: AvailabilityParameters, threads: Int) -> (rows: [Row], table: ResultTable, summary: ReportValue) {
        let values = parameters.sweepPWithoutExposure
        let workers = max(1, min(threads, values.count))
        let per = max(1, (values.count + workers - 1) / workers)   // forEachShard's shard size
        let results = ShardResults<[Row]>(count: (values.count + per - 1) / per)
        forEachShard(count: values.count, threads: workers) { range in
            let rows = range.map { i -> Row in
                var p = parameters
                p.pWithoutExposure = values[i]
                p.attacks = AnalyticsAttacks()
                p.sweepPWithoutExposure = []
                let model = AnalyticsRun.run(parameters: p, seed: seed, start: start, days: days, phoneOS: phoneOS, availability: availability)
                model.advance(until: model.end)
                return row(model: model)
            }
            results.set(range.lowerBound / per, rows)
        }
        let rows = results.all.flatMap { $0 }
        var table = ResultTable(columns: columns)
        for r in rows {
            table.append([.number(r.pWithoutExposure), .integer(Int64(r.requests)), .number(r.requestsPerPhoneMonth),
                          .integer(Int64(r.peakRequestsPerHour)), .number(r.nationalMeanAbsError), .number(r.nationalWorstAbsError),
                          .number(r.regionalMeanAbsError), .number(r.nationalRelativeHalfWidth)])
        }
        let summary = ReportValue.array(rows.map { r in
            .object(zip(columns, table.rows[rows.firstIndex(of: r)!]).map { ($0, $1) })
        })
        return (rows, table, summary)
    }

    static func row(model: AnalyticsModel) -> Row {
        let report = AnalyticsReport(model: model)
        let load = report.load
        let ledger = model.ledger
        var national: [Double] = [], halfWidths: [Double] = [], regional: [Double] = []
        for m in ledger.months.indices {
            let e = report.estimates(month: m, region: nil).working
            national.append(abs(e.relativeError))
            if e.truth > 0 { halfWidths.append((e.upper - e.lower) / 2 / e.truth) }
            for r in 0..<ledger.regions {
                let er = report.estimates(month: m, region: r).working
                if er.truth > 0 { regional.append(abs(er.relativeError)) }
            }
        }
        let phoneMonths = Double(model.profiles.count) * Double(ledger.daysInRun.reduce(0, +)) / 30.4375
        return Row(pWithoutExposure: model.parameters.pWithoutExposure, requests: load.total,
                   requestsPerPhoneMonth: phoneMonths > 0 ? Double(load.total) / phoneMonths : 0, peakRequestsPerHour: load.peakPerHour,
                   nationalMeanAbsError: Statistics.mean(national), nationalWorstAbsError: national.max() ?? 0,
                   regionalMeanAbsError: regional.isEmpty ? 0 : Statistics.mean(regional),
                   nationalRelativeHalfWidth: halfWidths.isEmpty ? 0 : Statistics.mean(halfWidths))
    }
}
