import Foundation

/// What a run found, in a few aligned lines: the summary `ensim run` prints at the end and
/// `ensim summary RUN_FOLDER` prints for a finished run. Read from summary.json (the typed
/// results as written), so both show the same figures; sections for stages a run did not have
/// are left out. A new stage adds a field and a `section`.
public struct RunDigest: Codable, Sendable {
    /// summary.json writes "n/a" where a rate or quantile has no data (nobody notified).
    struct Interval: Codable, Sendable {
        var estimate: Double?
        var lower: Double?
        var upper: Double?
        enum CodingKeys: String, CodingKey { case estimate, lower = "ci_lower", upper = "ci_upper" }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            (estimate, lower, upper) = (c.number(.estimate), c.number(.lower), c.number(.upper))
        }
    }
    struct Quantiles: Codable, Sendable {
        var median: Double?
        var p90: Double?
        enum CodingKeys: String, CodingKey { case median, p90 }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            (median, p90) = (c.number(.median), c.number(.p90))
        }
    }
    struct Health: Codable, Sendable {
        var indexCases: Int
        enum CodingKeys: String, CodingKey { case indexCases = "index_cases" }
    }
    struct Backend: Codable, Sendable {
        struct Uploads: Codable, Sendable { var real: Int; var national: Int }
        var flavor: String
        var uploads: Uploads
    }
    /// `detection.schedule` (present only with `app.detection.schedule`); `ios` and `android` with a per-platform override.
    struct Schedule: Codable, Sendable {
        struct Platform: Codable, Sendable {
            var detections: Int
            var filesHeld: Int
            var meanHoursHeld: Double
            enum CodingKeys: String, CodingKey { case detections, filesHeld = "files_held", meanHoursHeld = "mean_hours_held" }
        }
        var detections: Int
        var filesHeld: Int
        var meanHoursHeld: Double
        var ios: Platform?
        var android: Platform?
        enum CodingKeys: String, CodingKey { case detections, filesHeld = "files_held", meanHoursHeld = "mean_hours_held", ios, android }
    }
    struct Detection: Codable, Sendable {
        var preset: String
        var notified: Int
        var truePositives: Int
        var falsePositives: Int
        var precision: Interval
        var recall: Interval
        var latencyHours: Quantiles
        var schedule: Schedule?
        enum CodingKeys: String, CodingKey {
            case preset, notified, truePositives = "true_positives", falsePositives = "false_positives", precision, recall
            case latencyHours = "latency_hours", schedule
        }
    }
    struct Distribution: Codable, Sendable {
        var peakRequestsPerSecond: Int
        var terabytesPerDay: Double
        enum CodingKeys: String, CodingKey { case peakRequestsPerSecond = "peak_requests_per_second", terabytesPerDay = "terabytes_per_day" }
    }
    struct Analytics: Codable, Sendable {
        struct Month: Codable, Sendable {
            struct Estimate: Codable, Sendable {
                var relativeError: Double
                enum CodingKeys: String, CodingKey { case relativeError = "relative_error" }
            }
            var month: String
            var workingApps: Estimate
            enum CodingKeys: String, CodingKey { case month, workingApps = "working_apps" }
        }
        struct Coverage: Codable, Sendable {
            var workingApps: Double
            enum CodingKeys: String, CodingKey { case workingApps = "working_apps" }
        }
        var months: [Month]
        var intervalCoverage: Coverage?
        enum CodingKeys: String, CodingKey { case months, intervalCoverage = "interval_coverage" }
    }
    struct P6: Codable, Sendable {
        var notified: Int
        var precision: Interval
        var recall: Interval
    }

    var scenario: String
    var start: String
    var days: Int
    var population: Int
    var appPhones: Int
    var health: Health
    var backend: Backend
    var detection: Detection
    var distribution: Distribution
    struct Epidemic: Codable, Sendable {
        struct Load: Codable, Sendable {
            var testsAfterManualTracing: Int
            var hotlineCallsApp: Int
            var quarantineOrdersApp: Int
            var quarantineOrdersManual: Int
            enum CodingKeys: String, CodingKey {
                case testsAfterManualTracing = "tests_after_manual_tracing", hotlineCallsApp = "hotline_calls_app"
                case quarantineOrdersApp = "quarantine_orders_app", quarantineOrdersManual = "quarantine_orders_manual"
            }
        }
        var infections: Int
        var attackRate: Interval
        var testsForSymptoms: Int
        var testsAfterNotification: Int
        var notified: Int
        var notifiedInfectedByNotifier: Interval?
        var counterfactualInfections: Int?
        var infectionsAverted: Int?
        var load: Load
        enum CodingKeys: String, CodingKey {
            case infections, attackRate = "attack_rate", testsForSymptoms = "tests_for_symptoms"
            case testsAfterNotification = "tests_after_notification", notified
            case notifiedInfectedByNotifier = "notified_infected_by_notifier"
            case counterfactualInfections = "counterfactual_infections", infectionsAverted = "infections_averted", load
        }
    }

    var analytics: Analytics?
    var p6: P6?
    var epidemic: Epidemic?

    enum CodingKeys: String, CodingKey {
        case scenario, start, days, population, appPhones = "app_phones", health, backend, detection, distribution, analytics, p6
        case epidemic
    }

    /// - Throws: `FinishedRunError` naming summary.json when it is not a run's summary.
    public static func read(summaryJSON data: Data, path: String) throws(FinishedRunError) -> RunDigest {
        do { return try JSONDecoder().decode(RunDigest.self, from: data) } catch {
            throw FinishedRunError(path: path, reason: "is not a run summary ensim can read (\(Self.describe(error)))")
        }
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, let c): return "missing " + (c.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
        case .typeMismatch(_, let c), .valueNotFound(_, let c): return "wrong type at " + c.codingPath.map(\.stringValue).joined(separator: ".")
        case .dataCorrupted: return "not JSON"
        @unknown default: return "unreadable"
        }
    }

    /// The same figures as JSON, for scripts (`ensim summary --json`).
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }

    /// 1234567 as 1,234,567, whatever the locale.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// The aligned lines, ending with the folder.
    public func text(folder: String) -> String {
        let rows = rows(folder: folder)
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n") + "\n"
    }

    /// (label, value) pairs; the folder last when given.
    func rows(folder: String?) -> [(String, String)] {
        var rows: [(String, String)] = []
        func g(_ n: Int) -> String { Self.grouped(n) }
        func pct(_ i: Interval) -> String {
            guard let e = i.estimate, let lo = i.lower, let hi = i.upper else { return "n/a (no data)" }
            return String(format: "%.1f%% (95%% CI %.1f–%.1f%%)", 100 * e, 100 * lo, 100 * hi)
        }
        rows.append(("scenario", "\(scenario): \(days) day\(days == 1 ? "" : "s") from \(start)"))
        rows.append(("people", "\(g(population)) (\(g(appPhones)) app phones)"))
        rows.append(("index cases", "\(g(health.indexCases)), uploads \(g(backend.uploads.real)) (\(backend.flavor); national \(g(backend.uploads.national)))"))
        rows.append(("notified phones", "\(g(detection.notified)): \(g(detection.truePositives)) true, \(g(detection.falsePositives)) false (\(detection.preset))"))
        rows.append(("precision", pct(detection.precision)))
        rows.append(("recall", pct(detection.recall)))
        if let median = detection.latencyHours.median, let p90 = detection.latencyHours.p90 {
            rows.append(("latency", String(format: "median %.1f h, p90 %.1f h (test to notification)", median, p90)))
        }
        if let s = detection.schedule {
            func held(_ files: Int, _ hours: Double) -> String { "\(g(files)) files held " + String(format: "%.1f h", hours) + " on average" }
            var line = "\(g(s.detections)) detections, " + held(s.filesHeld, s.meanHoursHeld)
            if let ios = s.ios, let android = s.android {
                line += "; iOS \(g(ios.detections)), \(held(ios.filesHeld, ios.meanHoursHeld)); Android \(g(android.detections)), \(held(android.filesHeld, android.meanHoursHeld))"
            }
            rows.append(("schedule", line))
        }
        rows.append(("CDN", "peak \(g(distribution.peakRequestsPerSecond)) requests/s, " + String(format: "%.4g TB/day", distribution.terabytesPerDay)))
        if let analytics {
            let errors = analytics.months.map { $0.month + String(format: " %+.1f%%", 100 * $0.workingApps.relativeError) }
            let coverage = analytics.intervalCoverage.map { String(format: "; intervals cover the truth in %.0f%% of region-months", 100 * $0.workingApps) } ?? ""
            rows.append(("analytics", "working-apps error " + errors.joined(separator: ", ") + coverage))
        }
        if let p6 {
            rows.append(("P6", "\(g(p6.notified)) notified, precision \(pct(p6.precision)), recall \(pct(p6.recall))"))
        }
        if let e = epidemic {
            let byNotifier = e.notifiedInfectedByNotifier.map { ", \(pct($0)) of them infected by the case that notified them" } ?? ""
            rows.append(("epidemic", "\(g(e.infections)) infections, attack rate \(pct(e.attackRate)); \(g(e.notified)) people notified by the app" + byNotifier))
            if let without = e.counterfactualInfections, let averted = e.infectionsAverted {
                rows.append(("averted", "\(g(averted)) of \(g(without)) infections without the app (one seed; replicates give an interval)"))
            }
            rows.append(("load", "tests \(g(e.testsForSymptoms)) for symptoms, \(g(e.testsAfterNotification)) after the app, "
                         + "\(g(e.load.testsAfterManualTracing)) after tracing; \(g(e.load.hotlineCallsApp)) hotline calls; quarantines "
                         + "\(g(e.load.quarantineOrdersApp)) app, \(g(e.load.quarantineOrdersManual)) tracing (load_daily.csv)"))
        }
        if let folder { rows.append(("results", folder)) }
        return rows
    }
}

fileprivate extension KeyedDecodingContainer {
    /// A number, or nil for "n/a", null or a missing key.
    func number(_ key: Key) -> Double? { (try? decodeIfPresent(Double.self, forKey: key)) ?? nil }
}
