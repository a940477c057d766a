import Detection
import EventEngine
import GSL
import HealthBackend
import SimulationCore

/// Estimates per month and region (and province) from the accepted uploads, compared with the
/// ground truth, and the load on the Analytics Service.
///
/// - Working apps: uploads without exposure ÷ p_OWOE, against the mean number of phones that
///   ran a detection on a day of that month (each phone's window is a uniformly drawn day).
/// - Notified users: uploads with exposure ÷ p_OWE, against the phones notified in the month.
/// - Bluetooth off: share of uploads without exposure reporting Bluetooth off, against the share
///   of working phone-days with Bluetooth off.
/// Each count's 95% interval comes from what the service observes, the accepted uploads and p:
/// the exact interval for the number of phones N behind x uploads when each uploads with
/// probability p (`Proportion.binomialTrials`); the Bluetooth-off share's is Clopper–Pearson on
/// the uploads. The truth never enters an interval; how often the intervals cover it is
/// measured (`coverage`), and falls with attacks that add uploads.
package struct AnalyticsReport {
    package let model: AnalyticsModel
    package var ledger: AnalyticsLedger { model.ledger }
    package var p: AnalyticsParameters { model.parameters }

    package typealias Estimate = AnalyticsSummary.Estimate

    package static func count(_ uploads: Int, rate: Double, truth: Double) -> Estimate {
        let interval = Proportion.binomialTrials(successes: uploads, probability: rate)
        return Estimate(truth: truth, estimate: Double(uploads) / rate, lower: Double(interval.lower), upper: Double(interval.upper))
    }

    package static func share(_ x: Int, of n: Int, truth: Double) -> Estimate {
        guard n > 0 else { return Estimate(truth: truth, estimate: 0, lower: 0, upper: 1) }
        let ci = Proportion.clopperPearson(successes: x, trials: n)
        return Estimate(truth: truth, estimate: ci.estimate, lower: ci.lower, upper: ci.upper)
    }

    /// All regions of a month summed, or one region.
    package func cell(month: Int, region: Int?) -> AnalyticsLedger.MonthRegion {
        guard let region else {
            return (0..<ledger.regions).reduce(into: AnalyticsLedger.MonthRegion()) { acc, r in
                let c = ledger[month, r]
                acc.workingPhoneDays += c.workingPhoneDays
                acc.bluetoothOffPhoneDays += c.bluetoothOffPhoneDays
                acc.notifiedPhones += c.notifiedPhones
                acc.windowTests += c.windowTests
                acc.uploadsWithout += c.uploadsWithout
                acc.uploadsWithoutBluetoothOff += c.uploadsWithoutBluetoothOff
                acc.uploadsWith += c.uploadsWith
                acc.uploadsIOS += c.uploadsIOS
                acc.uploadsAndroid += c.uploadsAndroid
                acc.polluted += c.polluted
            }
        }
        return ledger[month, region]
    }

    package func estimates(month: Int, region: Int?) -> (working: Estimate, notified: Estimate, bluetoothOff: Estimate) {
        estimates(month: month, cell: cell(month: month, region: region))
    }

    package func estimates(month: Int, cell c: AnalyticsLedger.MonthRegion) -> (working: Estimate, notified: Estimate, bluetoothOff: Estimate) {
        let days = Double(max(1, ledger.daysInRun[month]))
        let working = Self.count(c.uploadsWithout, rate: p.pWithoutExposure, truth: Double(c.workingPhoneDays) / days)
        let notified = Self.count(c.uploadsWith, rate: p.pWithExposure, truth: Double(c.notifiedPhones))
        let btTruth = c.workingPhoneDays > 0 ? Double(c.bluetoothOffPhoneDays) / Double(c.workingPhoneDays) : 0
        return (working, notified, Self.share(c.uploadsWithoutBluetoothOff, of: c.uploadsWithout, truth: btTruth))
    }

    package static let monthlyColumns = [
        "month", "days_in_run", "region",
        "working_apps_truth", "working_apps_estimate", "working_apps_ci_lower", "working_apps_ci_upper", "working_apps_relative_error",
        "notified_truth", "notified_estimate", "notified_ci_lower", "notified_ci_upper",
        "bluetooth_off_truth", "bluetooth_off_estimate", "bluetooth_off_ci_lower", "bluetooth_off_ci_upper",
        "uploads_without_exposure", "uploads_with_exposure", "uploads_ios", "uploads_android", "uploads_from_attacks", "window_tests",
    ]

    /// monthly.csv: one row per month and region, then the national row ("all").
    package func monthlyTable() -> ResultTable {
        var table = ResultTable(columns: Self.monthlyColumns)
        let names = ItalianRegions.all.count == ledger.regions ? ItalianRegions.all.map(\.key) : (0..<ledger.regions).map { "region_\($0)" }
        for m in ledger.months.indices {
            for region in Array(0..<ledger.regions).map(Optional.some) + [nil] {
                let c = cell(month: m, region: region)
                let e = estimates(month: m, region: region)
                table.append([.text(ledger.months[m].description), .integer(Int64(ledger.daysInRun[m])), .text(region.map { names[$0] } ?? "all"),
                              .number(e.working.truth), .number(e.working.estimate), .number(e.working.lower), .number(e.working.upper),
                              .number(e.working.relativeError),
                              .number(e.notified.truth), .number(e.notified.estimate), .number(e.notified.lower), .number(e.notified.upper),
                              .number(e.bluetoothOff.truth), .number(e.bluetoothOff.estimate), .number(e.bluetoothOff.lower),
                              .number(e.bluetoothOff.upper),
                              .integer(Int64(c.uploadsWithout)), .integer(Int64(c.uploadsWith)), .integer(Int64(c.uploadsIOS)),
                              .integer(Int64(c.uploadsAndroid)), .integer(Int64(c.polluted)), .integer(Int64(c.windowTests))])
            }
        }
        return table
    }

    package static let provinceColumns = [
        "month", "province", "name", "region", "phones",
        "working_apps_truth", "working_apps_estimate", "working_apps_ci_lower", "working_apps_ci_upper", "working_apps_relative_error",
        "notified_truth", "notified_estimate", "notified_ci_lower", "notified_ci_upper",
        "bluetooth_off_truth", "bluetooth_off_estimate", "bluetooth_off_ci_lower", "bluetooth_off_ci_upper",
        "uploads_without_exposure", "uploads_with_exposure", "uploads_from_attacks",
    ]

    /// Phones per province (all profiles, installed or not).
    package var phonesPerProvince: [Int] {
        model.profiles.reduce(into: Array(repeating: 0, count: ItalianProvinces.all.count)) { n, p in if p.province >= 0 { n[p.province] += 1 } }
    }

    /// analytics_provinces.csv: one row per month and province (provinces without phones included).
    package func provinceTable() -> ResultTable {
        var table = ResultTable(columns: Self.provinceColumns)
        let phones = phonesPerProvince
        for m in ledger.months.indices {
            for (i, province) in ItalianProvinces.all.enumerated() {
                let c = ledger[m, province: i]
                let e = estimates(month: m, cell: c)
                table.append([.text(ledger.months[m].description), .text(province.code), .text(province.name), .text(province.region),
                              .integer(Int64(phones[i])),
                              .number(e.working.truth), .number(e.working.estimate), .number(e.working.lower), .number(e.working.upper),
                              .number(e.working.relativeError),
                              .number(e.notified.truth), .number(e.notified.estimate), .number(e.notified.lower), .number(e.notified.upper),
                              .number(e.bluetoothOff.truth), .number(e.bluetoothOff.estimate), .number(e.bluetoothOff.lower),
                              .number(e.bluetoothOff.upper),
                              .integer(Int64(c.uploadsWithout)), .integer(Int64(c.uploadsWith)), .integer(Int64(c.polluted))])
            }
        }
        return table
    }

    /// The province table in brief: how far the working-apps estimates of provinces with a truth
    /// fall from it, and how often the 95% interval covers it.
    package func provinceSummary() -> AnalyticsSummary.Provinces {
        var errors: [Double] = [], covered = 0
        for m in ledger.months.indices {
            for i in ItalianProvinces.all.indices {
                let e = estimates(month: m, cell: ledger[m, province: i]).working
                guard e.truth > 0 else { continue }
                errors.append(abs(e.relativeError))
                if e.lower <= e.truth && e.truth <= e.upper { covered += 1 }
            }
        }
        return AnalyticsSummary.Provinces(
            provinces: ItalianProvinces.all.count, provincesWithPhones: phonesPerProvince.filter { $0 > 0 }.count,
            provinceMonthsWithTruth: errors.count, workingAppsMeanAbsError: errors.isEmpty ? 0 : Statistics.mean(errors),
            workingAppsCICoversTruthShare: errors.isEmpty ? 0 : Double(covered) / Double(errors.count), table: "analytics_provinces.csv")
    }

    /// Shares of region-months (and province-months) with a truth whose interval covers it.
    package func intervalCoverage() -> AnalyticsSummary.Coverage {
        func share(_ covered: Int, _ n: Int) -> Double { n > 0 ? Double(covered) / Double(n) : 0 }
        func covers(_ e: Estimate) -> Bool { e.lower <= e.truth && e.truth <= e.upper }
        var n = [0, 0, 0], covered = [0, 0, 0], provinceMonths = 0, provincesCovered = 0
        for m in ledger.months.indices {
            for r in 0..<ledger.regions {
                let e = estimates(month: m, region: r)
                for (i, estimate) in [e.working, e.notified, e.bluetoothOff].enumerated() where estimate.truth > 0 {
                    n[i] += 1
                    if covers(estimate) { covered[i] += 1 }
                }
            }
            for i in ItalianProvinces.all.indices {
                let e = estimates(month: m, cell: ledger[m, province: i]).working
                guard e.truth > 0 else { continue }
                provinceMonths += 1
                if covers(e) { provincesCovered += 1 }
            }
        }
        return AnalyticsSummary.Coverage(regionMonths: n[0], workingApps: share(covered[0], n[0]),
                                         notifiedUsers: share(covered[1], n[1]), bluetoothOffShare: share(covered[2], n[2]),
                                         provinceMonths: provinceMonths, workingAppsByProvince: share(provincesCovered, provinceMonths))
    }

    /// analytics_hourly.csv: Analytics Service requests per hour.
    package func hourlyTable() -> ResultTable {
        var table = ResultTable(columns: ["hour", "time_utc", "day_of_month", "token_requests", "uploads", "attack_requests"])
        for h in ledger.tokenRequestsPerHour.indices {
            let t = ledger.start + Int64(h) * SimDuration.hour
            table.append([.integer(Int64(h)), .text(CivilCalendar.isoDateTimeString(t)), .integer(Int64(CivilDate(containing: t).day)),
                          .integer(Int64(ledger.tokenRequestsPerHour[h])), .integer(Int64(ledger.uploadRequestsPerHour[h])),
                          .integer(Int64(ledger.attackRequestsPerHour[h]))])
        }
        return table
    }

    package var legitimateDevicesBlacklisted: Int {
        model.profiles.indices.filter { model.profiles[$0].os == .iOS && model.deviceCheck.bits(of: $0).isBlacklisted }.count
    }

    /// Requests per hour: mean and peak; and, after the first day (installs), the requests on
    /// 1sts of months relative to an average day (1 = no spike).
    package var load: (total: Int, meanPerHour: Double, peakPerHour: Int, firstOfMonthRatio: Double) {
        let perHour = zip(ledger.tokenRequestsPerHour, ledger.uploadRequestsPerHour).map { $0 + $1 }
        let total = perHour.reduce(0, +)
        var onFirst = 0, firsts = 0, later = 0
        for (h, n) in perHour.enumerated() where h >= 24 {
            later += n
            let date = CivilDate(containing: ledger.start + Int64(h) * SimDuration.hour)
            if date.day == 1 { onFirst += n; if h % 24 == 0 { firsts += 1 } }
        }
        let laterDays = Double(perHour.count / 24 - 1)
        let ratio = firsts > 0 && later > 0 ? (Double(onFirst) / Double(firsts)) / (Double(later) / laterDays) : 0
        return (total, perHour.isEmpty ? 0 : Double(total) / Double(perHour.count), perHour.max() ?? 0, ratio)
    }

    package func summary() -> AnalyticsSummary {
        let months = ledger.months.indices.map { m -> AnalyticsSummary.Month in
            let e = estimates(month: m, region: nil)
            let tests = cell(month: m, region: nil).windowTests
            // The estimate against what it samples (phones with a detection in their window): sampling alone.
            return AnalyticsSummary.Month(month: ledger.months[m].description, daysInRun: ledger.daysInRun[m], workingApps: e.working,
                                          windowTests: tests, workingAppsVsWindowTests: tests > 0 ? e.working.estimate / Double(tests) - 1 : 0,
                                          notifiedUsers: e.notified, bluetoothOffShare: e.bluetoothOff)
        }
        let l = load
        return AnalyticsSummary(
            pWithExposure: p.pWithExposure, pWithoutExposure: p.pWithoutExposure, phones: model.profiles.count, months: months,
            provinces: provinceSummary(), intervalCoverage: intervalCoverage(), requests: l.total, requestsPerHourMean: l.meanPerHour, requestsPerHourPeak: l.peakPerHour,
            requestsOnFirstOfMonthVsAverageDay: l.firstOfMonthRatio,
            ios: .init(tokensAuthorised: ledger.authorisationsBySource.reduce(0, +),
                       maxTokensPerDeviceMonth: ledger.maxAuthorisationsPerDeviceMonth(),
                       doubleAuthorisations: ledger.doubleAuthorisations(), rejectedAlreadyUsedThisMonth: ledger.rejectedSameMonth,
                       blacklistings: ledger.blacklistings, deviceCheckTimeouts: ledger.deviceCheckTimeouts,
                       invalidDeviceTokens: ledger.invalidDeviceTokens, uploadsRejectedInvalidToken: ledger.rejectedInvalidToken,
                       uploadsRejectedTokenCap: ledger.rejectedTokenCap, uploadsSkippedWithoutValidToken: ledger.skippedNoToken),
            android: .init(uploadsSkippedFirst24h: ledger.skippedQuietPeriod, attestationFailedOnPhone: ledger.attestationFailedAtPhone,
                           rejectedSaltSeen: ledger.rejectedSaltSeen, rejectedStaleAttestation: ledger.rejectedStaleAttestation,
                           rejectedFailedAttestation: ledger.rejectedAttestation),
            attacks: attacksReport(), events: model.eventsProcessed)
    }

    /// Per attack: requests sent, uploads accepted, share of the data polluted (worst month), devices blacklisted.
    package func attacksReport() -> NamedValues<AnalyticsSummary.Attack> {
        let totalByMonth = ledger.months.indices.map { m in RequestSource.allCases.reduce(0) { $0 + ledger.acceptedBySourceMonth[$1.rawValue][m] } }
        let blacklisted = legitimateDevicesBlacklisted
        return NamedValues(RequestSource.allCases.dropFirst().map { source in
            let s = source.rawValue
            let worst = ledger.months.indices.map { m in
                totalByMonth[m] > 0 ? Double(ledger.acceptedBySourceMonth[s][m]) / Double(totalByMonth[m]) : 0
            }.max() ?? 0
            var attack = AnalyticsSummary.Attack(requestsSent: ledger.requestsBySource[s], uploadsAccepted: ledger.acceptedBySource[s],
                                                 shareOfMonthDataPolluted: worst,
                                                 legitimateDevicesBlacklisted: source == .iOSReplay ? blacklisted : 0)
            if source == .iOSTokenFarm || source == .iOSRace {
                attack.tokensAuthorised = ledger.authorisationsBySource[s]
                attack.maxTokensPerDeviceMonth = ledger.maxAuthorisationsPerDeviceMonth(source)
                attack.doubleAuthorisations = ledger.doubleAuthorisations(source)
            }
            return (source.name, attack)
        })
    }
}
