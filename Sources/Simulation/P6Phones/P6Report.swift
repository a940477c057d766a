import EventEngine
import GSL
import P6

extension P6Run {
    /// The `p6` summary block and `p6_comparison.csv` (and `p6_regions.csv` with several region
    /// streams), scored against the same ground truth as GAEN's detection (`truth`), with GAEN's
    /// figures of the same run beside P6's.
    /// - Parameter gaenPayloadBytes: package bytes GAEN's app phones fetched over the run.
    func finish(truth: ExposureDetection.Truth, gaen: ReportValue, distribution: ReportValue, uploads: Int,
                gaenPayloadBytes: Int64) -> (summary: ReportValue, tables: [NamedTable]) {
        let files = downloads.files
        let shown = disclosures[..<downloads.disclosuresFiled]
        let disclosureBytes = shown.reduce(0) { $0 + $1.bytes }
        let fileBytes = files.reduce(0) { $0 + $1.bytes }
        // Per app phone and day, like GAEN's figure (which is over its sampled client-days).
        let phoneDays = Double(max(1, phones * days))
        let perPhoneDay = Statistics.sorted(downloads.bytesPerPhoneDay())
        let total = ReportValue.number(perPhoneDay.isEmpty ? 0 : Statistics.mean(perPhoneDay))
        let txPerDay = Double(downloads.txBytes) / phoneDays, rxPerDay = Double(downloads.rxBytes) / phoneDays
        let payloadPerDay = Double(downloads.txBytes + downloads.rxBytes) / phoneDays
        func withoutSeedComparison(_ v: ReportValue) -> ReportValue {
            if case .object(let entries) = v { return .object(entries.filter { $0.0 != "cwa_seed_comparison" }) }
            return v
        }
        let streamSummaries = downloads.streams.map { withoutSeedComparison($0.model.results().summary) }
        let download: ReportValue = streamSummaries.count == 1 ? streamSummaries[0]
            : .array(zip(downloads.streams, streamSummaries).map { s, summary in
                if case .object(let entries) = summary { return .object([("region", .integer(Int64(s.region)))] + entries) }
                return summary
            })

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

        var summaryEntries: [(String, ReportValue)] = []
        if case .object(let entries) = summary { summaryEntries = entries }
        var tables: [NamedTable] = []
        if downloads.streams.count > 1 {
            let regional = regionalReport(shown: shown, truth: truth, notified: notified, streamSummaries: streamSummaries)
            summaryEntries.append(("regions", regional.summary))
            tables.append(NamedTable("p6_regions.csv", regional.table))
        }

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
        return (.object(summaryEntries), [NamedTable("p6_comparison.csv", table)] + tables)
    }

    /// Regional streams: per region, its phones, stream, bytes and detections, and the close
    /// contacts missed because every disclosure of their index cases went to streams they do not fetch.
    private func regionalReport(shown: ArraySlice<P6PublishedDisclosure>, truth: ExposureDetection.Truth, notified: Set<Int32>,
                                streamSummaries: [ReportValue]) -> (summary: ReportValue, table: ResultTable) {
        var streamsOfPerson: [Int32: Set<Int32>] = [:]
        for d in shown { streamsOfPerson[d.person, default: []].formUnion(d.streams) }
        let count = downloads.streams.count
        var phonesIn = [Int](repeating: 0, count: count), notifiedIn = phonesIn, eligibleIn = phonesIn
        var missedIn = phonesIn, otherRegionIn = phonesIn
        for phone in 0..<phones { phonesIn[Int(regions.ofPhone[phone])] += 1 }
        for phone in notified { notifiedIn[Int(regions.ofPhone[Int(phone)])] += 1 }
        for (phone, contacts) in truth.eligible {
            let home = Int(regions.ofPhone[Int(phone)])
            eligibleIn[home] += 1
            guard !notified.contains(phone) else { continue }
            missedIn[home] += 1
            let mine = Set(downloads.subscriptions(of: Int(phone)).map { Int32($0.stream) })
            let disclosed = contacts.compactMap { streamsOfPerson[$0.0] }
            if !disclosed.isEmpty && disclosed.allSatisfy({ $0.isDisjoint(with: mine) }) { otherRegionIn[home] += 1 }
        }
        var table = ResultTable(columns: ["region", "phones", "disclosures", "files", "file_bytes", "payload_bytes_per_client_per_day",
                                          "bytes_per_client_per_day", "notified", "close_contacts_with_app", "false_negatives",
                                          "false_negatives_other_region"])
        for (r, s) in downloads.streams.enumerated() {
            let files = s.files.map { downloads.files[$0] }
            let clientDays = Double(max(1, s.clients.count * days))
            table.append([.integer(Int64(r)), .integer(Int64(phonesIn[r])), .integer(Int64(shown.filter { $0.streams.contains(Int32(r)) }.count)),
                          .integer(Int64(files.count)), .integer(Int64(files.reduce(0) { $0 + $1.bytes })),
                          .number(Double(s.txBytes + s.rxBytes) / clientDays),
                          streamSummaries[r]["bytes_per_client_per_day"]?["mean"] ?? .number(0),
                          .integer(Int64(notifiedIn[r])), .integer(Int64(eligibleIn[r])), .integer(Int64(missedIn[r])),
                          .integer(Int64(otherRegionIn[r]))])
        }
        let stated = shown.filter { $0.streams.count > 1 }.count
        let summary = ReportValue.object([
            ("count", .integer(Int64(count))),
            ("subscription", .text(parameters.subscription.rawValue)),
            ("stated_regions_share", .number(parameters.statedRegionsShare)),
            ("disclosures_in_several_streams", .integer(Int64(stated))),
            ("streams_per_disclosure", .number(shown.isEmpty ? 0 : Double(shown.reduce(0) { $0 + $1.streams.count }) / Double(shown.count))),
            ("false_negatives_other_region", .integer(Int64(otherRegionIn.reduce(0, +)))),
        ])
        return (summary, table)
    }

    var rxRecordsPerPhoneDayMean: Double { rxStats.count > 0 ? rxStats.mean : 0 }
}
