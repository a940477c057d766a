import EventEngine
import GSL
import HealthBackend
import SimulationCore
import World

/// Why a true close contact was not notified: the furthest stage the exposure reached.
public enum MissCause: Int, CaseIterable, Sendable {
    /// The index case's key for that day was never published (no upload, or not yet).
    case noUpload
    /// Published, but the phone had not downloaded the package.
    case notYetDownloaded
    /// Downloaded, but no RPI of the key was heard: Bluetooth (or the phone) off on either side.
    case bluetoothOff
    /// Heard, but too far by attenuation: scored at 0 dB it would have notified.
    case attenuationAboveThreshold
    /// Heard, but too short even at the best attenuation.
    case tooShort

    public var name: String {
        switch self {
        case .noUpload: "no_upload"
        case .notYetDownloaded: "not_yet_downloaded"
        case .bluetoothOff: "bluetooth_off"
        case .attenuationAboveThreshold: "attenuation_above_threshold"
        case .tooShort: "too_short"
        }
    }
}

/// Results of a run's detection: the summary block and its CSV tables.
public struct DetectionReport: Sendable {
    public var summary: DetectionSummary
    public var tables: [NamedTable]
}

extension ExposureDetection {
    /// Ground truth per contact phone: close contacts with an index case on a day of its
    /// infectious window (first test result day inclusive).
    package struct Truth {
        /// Phones with such a contact (any index case): notifying them is right.
        package var exposed: Set<Int32> = []
        /// Phones with such a contact where the index case runs the app too: the recall base,
        /// with the (index person, UTC day number) of each contact.
        package var eligible: [Int32: [(Int32, Int64)]] = [:]
    }

    package func truth(groundTruth: some Sequence<GroundTruthDay>, cases: [PositiveCase]) -> Truth {
        // Arrays by person rather than dictionaries: every close contact of the run is looked up
        // (a dictionary of a million app phones took 0.7 s at the end of a 1 M run).
        var phoneOf = [Int32](repeating: -1, count: Int(owners.max() ?? -1) + 1)
        for (phone, person) in owners.enumerated() { phoneOf[Int(person)] = Int32(phone) }
        func phone(of person: Int32) -> Int32? { Int(person) < phoneOf.count && phoneOf[Int(person)] >= 0 ? phoneOf[Int(person)] : nil }
        var windows: [Int32: [ClosedRange<Int64>]] = [:]
        var isCase = [Bool](repeating: false, count: Int(cases.map(\.person).max() ?? -1) + 1)
        for c in cases {
            windows[c.person, default: []].append(c.infectiousFromDay...SimClock.dayNumber(c.resultAt))
            isCase[Int(c.person)] = true
        }
        var t = Truth()
        func visit(index: Int32, contact: Int32, dayNumber: Int64) {
            guard Int(index) < isCase.count && isCase[Int(index)], let w = windows[index], w.contains(where: { $0.contains(dayNumber) }),
                  let receiver = phone(of: contact) else { return }
            t.exposed.insert(receiver)
            if phone(of: index) != nil { t.eligible[receiver, default: []].append((index, dayNumber)) }
        }
        for gt in groundTruth {
            let dayNumber = startDayNumber + Int64(gt.dayIndex)
            for (i, pair) in gt.pairs.enumerated() where gt.secondsWithin[i] >= gt.closeContactSeconds {
                let a = Int32(truncatingIfNeeded: pair >> 32), b = Int32(truncatingIfNeeded: pair & 0xffff_ffff)
                visit(index: a, contact: b, dayNumber: dayNumber)
                visit(index: b, contact: a, dayNumber: dayNumber)
            }
        }
        return t
    }

    package func missCause(phone: Int32, contacts: [(Int32, Int64)]) -> MissCause {
        var best = MissCause.noUpload
        let ws = windows[phone] ?? []
        for (index, dayNumber) in contacts {
            var cause = MissCause.noUpload
            if let seq = firstPublication(uploader: index, dayNumber: dayNumber) {
                cause = .notYetDownloaded
                if maxDownloadedPackage(Int(phone)) >= seq {
                    cause = .bluetoothOff
                    let day = Int32(dayNumber - startDayNumber)
                    let heard = ws.filter { $0.uploader == index && $0.dayIndex == day }
                    if !heard.isEmpty {
                        let sameDay = ws.filter { $0.dayIndex == day }
                        let asOf = sameDay.map(\.detectedAt).max()!
                        cause = parameters.model.evaluateDay(exposures(sameDay, asOf: asOf, attenuationOverride: 0)).notify
                            ? .attenuationAboveThreshold : .tooShort
                    }
                }
            }
            if cause.rawValue > best.rawValue { best = cause }
        }
        return best
    }

    /// Scores the run against ground truth. `groundTruth`: the days still held (the
    /// simulation keeps 21); `cases`: every positive case of the run.
    public func finish(groundTruth: [GroundTruthDay], cases: [PositiveCase]) -> DetectionReport {
        finish(truth: truth(groundTruth: groundTruth, cases: cases), cases: cases)
    }

    /// The same with the ground truth already reduced (shared with P6's scoring of the same run).
    package func finish(truth: Truth, cases: [PositiveCase]) -> DetectionReport {
        let notified = Set(notifications.keys)
        let tp = notified.intersection(truth.exposed).count
        let fp = notified.count - tp
        let eligiblePhones = Set(truth.eligible.keys)
        let eligibleHit = eligiblePhones.intersection(notified).count
        var causes = [Int](repeating: 0, count: MissCause.allCases.count)
        for phone in eligiblePhones.subtracting(notified).sorted() {
            causes[missCause(phone: phone, contacts: truth.eligible[phone]!).rawValue] += 1
        }
        let fn = eligiblePhones.count - eligibleHit

        var testedAt: [Int32: SimTime] = [:]
        for c in cases { testedAt[c.person] = min(testedAt[c.person] ?? .max, c.testedAt) }
        var latencies: [Double] = []
        var perCase: [Int32: (all: Int, right: Int)] = [:]
        for phone in notified.sorted() {
            let n = notifications[phone]!
            if let t = n.uploaders.compactMap({ testedAt[$0] }).min() { latencies.append(Double(n.at - t) / 3600) }
            for u in n.uploaders where u >= 0 {
                perCase[u, default: (0, 0)].all += 1
                if truth.exposed.contains(phone) { perCase[u, default: (0, 0)].right += 1 }
            }
        }
        let sortedLatency = Statistics.sorted(latencies)
        let summary = DetectionSummary(
            preset: parameters.preset.rawValue,
            model: { if case .v1 = parameters.model { "gaen-v1" } else { "gaen-v2" } }(),
            identifiersDerived: identifiersDerived, encountersChecked: encountersChecked, matchedEncounters: matchedEncounters,
            notified: notified.count, truePositives: tp, falsePositives: fp, closeContactsWithApp: eligiblePhones.count,
            falseNegatives: fn, falseNegativeCauses: NamedValues(MissCause.allCases.map { ($0.name, causes[$0.rawValue]) }),
            precision: ProportionSummary(tp, of: notified.count), recall: ProportionSummary(eligibleHit, of: eligiblePhones.count),
            falsePositivesPer1000Notified: ProportionSummary(fp, of: notified.count, scale: 1000),
            falseNegativeRate: ProportionSummary(fn, of: eligiblePhones.count),
            latencyHours: LatencyHoursSummary(sorted: sortedLatency), indexCasesWithNotifications: perCase.count,
            keyFileRateLimit: keyFiles.summary, schedule: scheduled.summary,
            clockSkew: clockOffsets.isEmpty ? nil : ClockSkewSummary(offsets: clockOffsets, outside: outsideDriftTolerance))
        return DetectionReport(summary: summary, tables: [
            NamedTable("notifications_daily.csv", dailyTable(exposed: truth.exposed)),
            NamedTable("notifications_per_case.csv", perCaseTable(perCase, testedAt: testedAt)),
            NamedTable("exposures.csv", exposureTable(exposed: truth.exposed)),
            NamedTable("latency.csv", latencyTable(latencies)),
            NamedTable("thresholds.csv", thresholdTable(truth: truth)),
        ])
    }

    private func dailyTable(exposed: Set<Int32>) -> ResultTable {
        var byDay: [Int64: (Int64, Int64)] = [:]
        for (phone, n) in notifications {
            let d = SimClock.dayNumber(n.at) - startDayNumber
            if exposed.contains(phone) { byDay[d, default: (0, 0)].0 += 1 } else { byDay[d, default: (0, 0)].1 += 1 }
        }
        var table = ResultTable(columns: ["day", "date", "notified", "true_notifications", "false_notifications"])
        guard let last = byDay.keys.max() else { return table }
        for d in 0...last {
            let (t, f) = byDay[d] ?? (0, 0)
            table.append([.integer(d), .text(CivilCalendar.isoDateString(start + d * SimDuration.day)), .integer(t + f), .integer(t), .integer(f)])
        }
        return table
    }

    private func perCaseTable(_ perCase: [Int32: (all: Int, right: Int)], testedAt: [Int32: SimTime]) -> ResultTable {
        var table = ResultTable(columns: ["person", "tested_at", "notified_phones", "true_notifications"])
        for (person, n) in perCase.sorted(by: { $0.key < $1.key }) {
            table.append([.integer(Int64(person)), testedAt[person].map { .text(CivilCalendar.isoDateTimeString($0)) } ?? .text(""),
                          .integer(Int64(n.all)), .integer(Int64(n.right))])
        }
        return table
    }

    private func latencyTable(_ hours: [Double]) -> ResultTable {
        var table = ResultTable(columns: ["latency_hours"])
        for h in hours { table.append([.number(h)]) }
        return table
    }

    /// One row per phone and exposure day: windows, minutes, mean attenuation, score, notification.
    private func exposureTable(exposed: Set<Int32>) -> ResultTable {
        var table = ResultTable(columns: ["phone", "person", "exposure_date", "windows", "minutes", "mean_attenuation_db",
                                          "mean_tx_power_dbm", "score", "notified", "first_notification", "close_contact"])
        for phone in windows.keys.sorted() {
            let all = windows[phone]!
            let n = notifications[phone]
            for (day, ws) in Self.byDay(all) {
                let asOf = ws.map(\.detectedAt).max()!
                let value = parameters.model.evaluateDay(exposures(ws, asOf: asOf)).value
                let scans = ws.flatMap(\.scans)
                let seconds = scans.reduce(0) { $0 + $1.seconds }
                let meanAttenuation = seconds > 0 ? Double(scans.reduce(0) { $0 + $1.typicalAttenuation * $1.seconds }) / Double(seconds) : 0
                let meanTx = Double(ws.reduce(0) { $0 + Int($1.transmitPower) }) / Double(ws.count)
                let isNotificationDay = n?.exposureDayIndex == day
                table.append([.integer(Int64(phone)), .integer(Int64(owners[Int(phone)])),
                              .text(CivilCalendar.isoDateString(start + Int64(day) * SimDuration.day)), .integer(Int64(ws.count)),
                              .number(Double(seconds) / 60), .number(meanAttenuation), .number(meanTx), .number(value),
                              .boolean(isNotificationDay), .text(isNotificationDay ? CivilCalendar.isoDateTimeString(n!.at) : ""),
                              .boolean(exposed.contains(phone))])
            }
        }
        return table
    }

    /// The trade-off grid: a phone notifies when on some day it has at least `m` minutes of
    /// matched scans at or below `a` dB. Same matches as the run, no new detection.
    private func thresholdTable(truth: Truth) -> ResultTable {
        let grid = (parameters.gridAttenuations, parameters.gridMinutes)
        var table = ResultTable(columns: ["attenuation_db", "minutes", "notified", "true_positives", "false_positives",
                                          "false_negatives", "precision", "precision_ci_lower", "precision_ci_upper",
                                          "recall", "recall_ci_lower", "recall_ci_upper", "false_positives_per_1000_notified"])
        // Per phone: the best day's seconds at or below each attenuation threshold.
        var best: [(Int32, [Int])] = []
        for phone in windows.keys.sorted() {
            var top = [Int](repeating: 0, count: grid.0.count)
            for (_, ws) in Self.byDay(windows[phone]!) {
                for (i, a) in grid.0.enumerated() {
                    let s = ws.reduce(0) { $0 + $1.scans.reduce(0) { $0 + ($1.typicalAttenuation <= a ? $1.seconds : 0) } }
                    top[i] = max(top[i], s)
                }
            }
            best.append((phone, top))
        }
        let eligible = Set(truth.eligible.keys)
        for (i, a) in grid.0.enumerated() {
            for m in grid.1 {
                let notified = best.filter { $0.1[i] >= m * 60 }.map(\.0)
                let tp = notified.filter { truth.exposed.contains($0) }.count
                let hit = notified.filter { eligible.contains($0) }.count
                let p = Proportion.clopperPearson(successes: tp, trials: max(1, notified.count))
                let r = Proportion.clopperPearson(successes: hit, trials: max(1, eligible.count))
                table.append([.integer(Int64(a)), .integer(Int64(m)), .integer(Int64(notified.count)), .integer(Int64(tp)),
                              .integer(Int64(notified.count - tp)), .integer(Int64(eligible.count - hit)),
                              .number(p.estimate), .number(p.lower), .number(p.upper), .number(r.estimate), .number(r.lower), .number(r.upper),
                              .number(notified.isEmpty ? 0 : 1000 * Double(notified.count - tp) / Double(notified.count))])
            }
        }
        return table
    }
}
