import EventEngine
import GSL
import P6

extension P6Run {
    /// The `p6` summary block and `p6_comparison.csv`, scored against the same ground truth as
    /// GAEN's detection (`truth`), with GAEN's figures of the same run beside P6's.
    /// - Parameter gaenPayloadBytes: package bytes GAEN's app phones fetched over the run.
    func finish(truth: ExposureDetection.Truth, gaen: ReportValue, distribution: ReportValue, uploads: Int,
                gaenPayloadBytes: Int64) -> (summary: ReportValue, table: NamedTable) {
        let files = downloads.files
        let shown = disclosures[..<downloads.disclosuresFiled]
        let disclosureBytes = shown.reduce(0) { $0 + $1.bytes }
        let fileBytes = files.reduce(0) { $0 + $1.bytes }
        // Per app phone and day, like GAEN's figure (which is over its sampled client-days).
        let phoneDays = Double(max(1, phones * days))
        let fetched = downloads.model.results().summary
        let total = fetched["bytes_per_client_per_day"]?["mean"] ?? .number(0)
        let txPerDay = Double(downloads.txBytes) / phoneDays, rxPerDay = Double(downloads.rxBytes) / phoneDays
        let payloadPerDay = Double(downloads.txBytes + downloads.rxBytes) / phoneDays
        let download: ReportValue
        if case .object(let entries) = fetched { download = .object(entries.filter { $0.0 != "cwa_seed_comparison" }) } else { download = fetched }

        let notified = Set(notifications.keys)
        let tp = notified.intersection(truth.exposed).count
        let fp = notified.count - tp
        let eligible = Set(truth.eligible.keys)
        let hit = eligible.intersection(notified).count
        let byTx = notifications.values.filter(\.byTx).count
        func interval(_ x: Int, _ n: Int, scale: Double = 1) -> ReportValue { .proportion(x, of: n, scale: scale) }
        let txFull = fullMatches.filter(\.byTx).count
        let latencies = Statistics.sorted(notifications.values.map { Double($0.at - disclosures[Int($0.disclosure)].testedAt) / 3600 })
        func latency(_ q: Double) -> ReportValue { latencies.isEmpty ? .text("n/a") : .number(Statistics.quantile(sorted: latencies, q)) }
        let summary = ReportValue.object([
            ("slice_seconds", .integer(Int64(parameters.sliceSeconds))),
            ("match_rule", .text("\(parameters.matchThreshold) in \(parameters.matchWindow)")),
            ("rx_records_per_phone_day", .number(rxRecordsPerPhoneDayMean)),
            ("rx_store_bytes_at_end", .integer(Int64(rx.bytes))),
            ("disclosures", .integer(Int64(disclosures.count))),
            ("disclosures_published", .integer(Int64(shown.count))),
            ("disclosed_epochs", .integer(Int64(shown.reduce(0) { $0 + $1.disclosure.epochs.count }))),
            ("disclosed_rx_records", .integer(Int64(shown.reduce(0) { $0 + $1.disclosure.rxTrace.count }))),
            ("disclosure_bytes", .integer(Int64(disclosureBytes))),
            ("disclosure_bytes_max", .integer(Int64(shown.map(\.bytes).max() ?? 0))),
            ("files", .integer(Int64(files.count))),
            ("file_bytes", .integer(Int64(fileBytes))),
            ("bytes_per_phone_per_day", .object([
                ("total", total), ("payload", .number(payloadPerDay)), ("tx_part", .number(txPerDay)), ("rx_part", .number(rxPerDay)),
            ])),
            ("download", download),
            ("tx_single_slice_matches", .integer(txSingles)),
            ("tx_full_matches", .integer(Int64(txFull))),
            ("rx_single_slice_matches", .integer(rxSingles)),
            ("rx_full_matches", .integer(Int64(fullMatches.count - txFull))),
            ("notified", .integer(Int64(notified.count))),
            ("notified_first_by_tx", .integer(Int64(byTx))),
            ("notified_first_by_rx", .integer(Int64(notified.count - byTx))),
            ("true_positives", .integer(Int64(tp))),
            ("false_positives", .integer(Int64(fp))),
            ("close_contacts_with_app", .integer(Int64(eligible.count))),
            ("false_negatives", .integer(Int64(eligible.count - hit))),
            ("precision", interval(tp, notified.count)),
            ("recall", interval(hit, eligible.count)),
            ("false_positives_per_1000_notified", interval(fp, notified.count, scale: 1000)),
            ("latency_hours", .object([("count", .integer(Int64(latencies.count))), ("median", latency(0.5)), ("p90", latency(0.9))])),
        ])

        var table = ResultTable(columns: ["metric", "gaen", "p6", "note"])
        func estimate(_ v: ReportValue?, _ key: String) -> ReportValue { v?[key] ?? .text("n/a") }
        table.append([.text("index_cases_sharing"), .integer(Int64(uploads)), .integer(Int64(disclosures.count)),
                      .text("GAEN uploads accepted; P6 discloses for exactly those cases")])
        for key in ["notified", "true_positives", "false_positives", "close_contacts_with_app", "false_negatives"] {
            table.append([.text(key), gaen[key] ?? .text("n/a"), summary[key]!, .text("")])
        }
        for key in ["precision", "recall", "false_positives_per_1000_notified"] {
            for part in ["estimate", "ci_lower", "ci_upper"] {
                table.append([.text(key + "_" + part), estimate(gaen[key], part), estimate(summary[key], part),
                              .text(part == "estimate" ? "" : "Clopper-Pearson 95%")])
            }
        }
        for part in ["median", "p90"] {
            table.append([.text("latency_hours_" + part), estimate(gaen["latency_hours"], part), estimate(summary["latency_hours"], part),
                          .text("from the index case's test to the notification")])
        }
        let note = "simulated checks: index requests, files, HTTP/TLS overhead; mean over client-days"
        table.append([.text("bytes_per_phone_per_day"), estimate(distribution["bytes_per_client_per_day"], "mean"), total, .text(note)])
        table.append([.text("payload_bytes_per_phone_per_day"), .number(Double(gaenPayloadBytes) / phoneDays), .number(payloadPerDay),
                      .text("GAEN: key packages; P6: disclosure files (Tx + Rx parts)")])
        table.append([.text("tx_part_bytes_per_phone_per_day"), .text("n/a"), .number(txPerDay),
                      .text("file and disclosure headers, Tx traces (78 B per epoch)")])
        table.append([.text("rx_part_bytes_per_phone_per_day"), .text("n/a"), .number(rxPerDay),
                      .text("disclosed Rx-trace records (9 B each)")])
        return (summary, NamedTable("p6_comparison.csv", table))
    }

    var rxRecordsPerPhoneDayMean: Double { rxStats.count > 0 ? rxStats.mean : 0 }
}
