import Detection
import EventEngine
import GSL
import HealthBackend
import SimulationCore
import World

/// The p_OWOE trade-off: for each sampling rate, the same phones and detections (common random
/// numbers: every draw is keyed by entity, so only the sampling outcome changes) give the
/// Analytics Service's load and the working-apps estimate's error. Attacks are off. Synthetic
/// mode reruns the model per value (`run`); simulated mode feeds one model per value during
/// the run (`SimulatedDetections`); both report through `row` and `report`.
public enum AnalyticsSweep {
    public struct Row: Sendable, Equatable, Encodable {
        public var pWithoutExposure: Double
        public var requests: Int
        public var requestsPerPhoneMonth: Double
        public var meanRequestsPerHour: Double
        public var peakRequestsPerHour: Int
        /// Accepted uploads without exposure (what the working-apps estimate counts).
        public var uploadsWithoutExposure: Int
        /// Mean over months of the national working-apps relative error (signed, then absolute), and the worst month.
        public var nationalMeanError: Double
        public var nationalMeanAbsError: Double
        public var nationalWorstAbsError: Double
        /// Mean over months and regions (provinces) with a truth of |relative error|.
        public var regionalMeanAbsError: Double
        public var provincialMeanAbsError: Double
        /// Half-width of the national 95% interval relative to the truth, mean over months.
        public var nationalRelativeHalfWidth: Double
        /// Share of region-months whose working-apps interval covers the truth (attack-free model).
        public var regionalCICoverage: Double

        /// Also sweep.csv's columns.
        package enum CodingKeys: String, CodingKey, CaseIterable {
            case pWithoutExposure = "p_owoe", requests, requestsPerPhoneMonth = "requests_per_phone_month"
            case meanRequestsPerHour = "requests_per_hour_mean", peakRequestsPerHour = "peak_requests_per_hour"
            case uploadsWithoutExposure = "uploads_without_exposure", nationalMeanError = "national_mean_error"
            case nationalMeanAbsError = "national_mean_abs_error", nationalWorstAbsError = "national_worst_abs_error"
            case regionalMeanAbsError = "regional_mean_abs_error", provincialMeanAbsError = "provincial_mean_abs_error"
            case nationalRelativeHalfWidth = "national_ci_relative_half_width", regionalCICoverage = "regional_ci_coverage"
        }
    }

    public static let columns = Row.CodingKeys.allCases.map(\.stringValue)

    /// The parameters of the sweep's model for one p_OWOE value: attacks off, no nested sweep.
    package static func parameters(_ base: AnalyticsParameters, pWithoutExposure: Double) -> AnalyticsParameters {
        var p = base
        p.pWithoutExposure = pWithoutExposure
        p.attacks = AnalyticsAttacks()
        p.sweepPWithoutExposure = []
        return p
    }

    /// sweep.csv: one row per value (the summary's `sweep` array holds the same rows).
    package static func table(rows: [Row]) -> ResultTable {
        var table = ResultTable(columns: columns)
        for r in rows {
            table.append([.number(r.pWithoutExposure), .integer(Int64(r.requests)), .number(r.requestsPerPhoneMonth),
                          .number(r.meanRequestsPerHour), .integer(Int64(r.peakRequestsPerHour)), .integer(Int64(r.uploadsWithoutExposure)),
                          .number(r.nationalMeanError), .number(r.nationalMeanAbsError), .number(r.nationalWorstAbsError),
                          .number(r.regionalMeanAbsError), .number(r.provincialMeanAbsError), .number(r.nationalRelativeHalfWidth),
                          .number(r.regionalCICoverage)])
        }
        return table
    }

    package static func row(model: AnalyticsModel) -> Row {
        let report = AnalyticsReport(model: model)
        let load = report.load
        let ledger = model.ledger
        var national: [Double] = [], halfWidths: [Double] = [], regional: [Double] = [], provincial: [Double] = []
        var uploads = 0
        for m in ledger.months.indices {
            let e = report.estimates(month: m, region: nil).working
            national.append(e.relativeError)
            uploads += report.cell(month: m, region: nil).uploadsWithout
            if e.truth > 0 { halfWidths.append((e.upper - e.lower) / 2 / e.truth) }
            for r in 0..<ledger.regions {
                let er = report.estimates(month: m, region: r).working
                if er.truth > 0 { regional.append(abs(er.relativeError)) }
            }
            for i in ItalianProvinces.all.indices {
                let ep = report.estimates(month: m, cell: ledger[m, province: i]).working
                if ep.truth > 0 { provincial.append(abs(ep.relativeError)) }
            }
        }
        let absolute = national.map(abs)
        let phoneMonths = Double(model.profiles.count) * Double(ledger.daysInRun.reduce(0, +)) / 30.4375
        return Row(pWithoutExposure: model.parameters.pWithoutExposure, requests: load.total,
                   requestsPerPhoneMonth: phoneMonths > 0 ? Double(load.total) / phoneMonths : 0, meanRequestsPerHour: load.meanPerHour,
                   peakRequestsPerHour: load.peakPerHour, uploadsWithoutExposure: uploads,
                   nationalMeanError: Statistics.mean(national), nationalMeanAbsError: Statistics.mean(absolute),
                   nationalWorstAbsError: absolute.max() ?? 0,
                   regionalMeanAbsError: regional.isEmpty ? 0 : Statistics.mean(regional),
                   provincialMeanAbsError: provincial.isEmpty ? 0 : Statistics.mean(provincial),
                   nationalRelativeHalfWidth: halfWidths.isEmpty ? 0 : Statistics.mean(halfWidths),
                   regionalCICoverage: report.intervalCoverage().workingApps)
    }
}
