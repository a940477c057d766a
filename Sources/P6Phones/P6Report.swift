import Detection
import Distribution
import EventEngine
import GSL
import P6
import SimulationCore
import World

extension P6Run {
    /// The `p6` summary block and `p6_comparison.csv` (and `p6_regions.csv` with several region
    /// streams), scored against the same ground truth as GAEN's detection (`truth`), with GAEN's
    /// figures of the same run beside P6's.
    /// - Parameter gaenPayloadBytes: package bytes GAEN's app phones fetched over the run.
    package func finish(truth: ExposureDetection.Truth, gaen: DetectionSummary, distribution: DistributionSummary, uploads: Int,
                gaenPayloadBytes: Int64) -> (summary: P6Summary, tables: [NamedTable]) {
        let files = downloads.files
        let shown = disclosures[..<downloads.disclosuresFiled]
        let disclosureBytes = shown.reduce(0) { $0 + $1.bytes }
        let fileBytes = files.reduce(0) { $0 + $1.bytes }
        // Per app phone and day, like GAEN's figure (which is over its sampled client-days).
        let phoneDays = Double(max(1, phones * days))
        let perPhoneDay = Statistics.sorted(downloads.bytesPerPhoneDay())
        let total = perPhoneDay.isEmpty ? 0 : Statistics.mean(perPhoneDay)
        let txPerDay = Double(downloads.txBytes) / phoneDays, rxPerDay = Double(downloads.rxBytes) / phoneDays
        let payloadPerDay = Double(downloads.txBytes + downloads.rxBytes) / phoneDays
        let streamSummaries = downloads.streams.map { stream in
            var summary = stream.model.results().summary
            summary.cwaSeedComparison = nil
            return summary
        }
        let download: P6Summary.Download = streamSummaries.count == 1 ? .single(streamSummaries[0])
            : .regions(zip(downloads.streams, streamSummaries).map { .init(region: $0.region, distribution: $1) })

        let notified = Set(notifications.keys)
        let tp = notified.intersection(truth.exposed).count
        let fp = notified.count - tp
        let eligible = Set(truth.eligible.keys)
        let hit = eligible.intersection(notified).count
        let byTx = notifications.values.filter(\.byTx).count
        let txFull = fullMatches.filter(\.byTx).count
        let latencies = Statistics.sorted(notifications.values.map { Double($0.at - disclosures[Int($0.disclosure)].testedAt) / 3600 })
        var summary = P6Summary(
            sliceSeconds: parameters.sliceSeconds, matchRule: "\(parameters.matchThreshold) in \(parameters.matchWindow)",
            rxRecordsPerPhoneDay: rxRecordsPerPhoneDayMean, rxStoreBytesAtEnd: rx.bytes, disclosures: disclosures.count,
            disclosuresPublished: shown.count, disclosedEpochs: shown.reduce(0) { $0 + $1.disclosure.epochs.count },
            disclosedRxRecords: shown.reduce(0) { $0 + $1.disclosure.rxTrace.count }, disclosureBytes: disclosureBytes,
            disclosureBytesMax: shown.map(\.bytes).max() ?? 0, files: files.count, fileBytes: fileBytes,
            bytesPerPhonePerDay: .init(total: total, payload: payloadPerDay, txPart: txPerDay, rxPart: rxPerDay),
            download: download, txSingleSliceMatches: txSingles, txFullMatches: txFull, rxSingleSliceMatches: rxSingles,
            rxFullMatches: fullMatches.count - txFull, notified: notified.count, notifiedFirstByTx: byTx,
            notifiedFirstByRx: notified.count - byTx, truePositives: tp, falsePositives: fp, closeContactsWithApp: eligible.count,
            falseNegatives: eligible.count - hit, precision: ProportionSummary(tp, of: notified.count),
            recall: ProportionSummary(hit, of: eligible.count),
            falsePositivesPer1000Notified: ProportionSummary(fp, of: notified.count, scale: 1000),
            latencyHours: LatencyHoursSummary(sorted: latencies))

        if parameters.rxTraceEncoding != .raw || parameters.rxRecordsPerSlice > 0 || parameters.withholdAtHome {
            summary.rxTrace = .init(encoding: parameters.rxTraceEncoding.rawValue, maxRecordsPerSlice: parameters.rxRecordsPerSlice,
                                    recordsWithheld: shown.reduce(0) { $0 + $1.rxRecordsWithheld },
                                    withholdAtHome: parameters.withholdAtHome,
                                    recordsWithheldAtHome: shown.reduce(0) { $0 + $1.rxRecordsWithheldAtHome },
                                    disclosureBytesRaw: shown.reduce(0) { $0 + $1.disclosure.encodedByteCount })
        }
        if let collisionParameters { summary.collisions = CollisionSummary(collisions, parameters: collisionParameters) }
        if let attackers {
            summary.attacks = .init(freeloaders: attackers.freeloader.filter { $0 }.count, uploadsNotDisclosed: freeloaderUploads)
            if parameters.attacks.fakeDisclosureShare > 0 {
                summary.attacks?.fakeDisclosures = fakeReport(attackers, shown: shown, notified: notified, truth: truth)
            }
            if !attackers.replays.isEmpty { summary.attacks?.replay = replayReport(shown: shown, notified: notified) }
            if parameters.attacks.excessPowerShare > 0 {
                let loud = { (d: Int32) in attackers.excessPowerDB[Int(self.disclosures[Int(d)].phone)] > 0 }
                let raised = notifications.filter { loud($0.value.disclosure) }.map(\.key)
                summary.attacks?.excessPower = .init(
                    phones: attackers.excessPowerDB.filter { $0 > 0 }.count, db: parameters.attacks.excessPowerDB,
                    disclosures: shown.filter { attackers.excessPowerDB[Int($0.phone)] > 0 }.count, notified: raised.count,
                    falsePositives: raised.filter { !truth.exposed.contains($0) }.count)
            }
        }
        if parameters.revocationList {
            let revoked = shown.filter { $0.revocationListedAt != nil }
            // One list file per period with revocations, as the disclosure files.
            let listFiles = Set(revoked.map(\.revocationListedAt!)).count
            let stillNotified = notified.subtracting(withdrawn.keys)
            let stillTrue = stillNotified.intersection(truth.exposed).count
            let withdrawnTrue = Set(withdrawn.keys).intersection(truth.exposed).count
            let delays = Statistics.sorted(withdrawn.map { Double($0.value - notifications[$0.key]!.at) / 3600 })
            summary.revocation = .init(revokedDisclosures: revoked.count, listBytes: listFiles * P6DisclosureFile.headerBytes + 16 * revoked.count,
                                       notificationsWithdrawn: withdrawn.count, withdrawnTrue: withdrawnTrue,
                                       withdrawnFalse: withdrawn.count - withdrawnTrue, withdrawalDelayHours: LatencyHoursSummary(sorted: delays),
                                       notifiedAfterRevocation: stillNotified.count,
                                       precisionAfterRevocation: ProportionSummary(stillTrue, of: stillNotified.count))
            if parameters.cleansRxMatches {
                summary.revocation?.rxMatchesCleaned = rxMatchesCleaned.count
                summary.revocation?.withdrawnByCleaning = withdrawnByCleaning.filter { withdrawn[$0] != nil }.count
            }
            if parameters.reportShare > 0 {
                let byReports = shown.filter { $0.revokedByReportsAt != nil }
                summary.revocation?.byReports = .init(reports: reports.values.reduce(0) { $0 + $1.count }, threshold: parameters.reportThreshold,
                                                      revoked: byReports.count, revokedReal: byReports.filter { !$0.fake }.count)
            }
        }
        var tables: [NamedTable] = []
        if downloads.streams.count > 1 {
            let regional = regionalReport(shown: shown, truth: truth, notified: notified, streamSummaries: streamSummaries)
            summary.regions = regional.summary
            tables.append(NamedTable("p6_regions.csv", regional.table))
        }
        return (summary, [NamedTable("p6_comparison.csv", comparisonTable(gaen: gaen, p6: summary, distribution: distribution,
                                                                          uploads: uploads, gaenPayloadBytes: gaenPayloadBytes))] + tables)
    }

    private func fakeReport(_ attackers: P6Attackers, shown: ArraySlice<P6PublishedDisclosure>, notified: Set<Int32>,
                            truth: ExposureDetection.Truth) -> P6Summary.FakeDisclosures {
        // Replay disclosures are fakes too, reported under `replay`.
        func isFake(_ d: P6PublishedDisclosure) -> Bool { d.fake && d.replayAttack == nil }
        let fakes = shown.filter(isFake)
        let matched = Set(fullMatches.filter { isFake(disclosures[Int($0.disclosure)]) }.map(\.phone))
        let onlyFakes = notified.filter { phone in matchedDisclosures[phone]?.allSatisfy { isFake(disclosures[Int($0)]) } ?? false }
        return .init(attackers: attackers.installedAt.count, attempts: fakeOutcomes.count,
                     byModifiedClients: fakeOutcomes.filter(\.attempt.modifiedClient).count,
                     rejectedByAppAge: fakeOutcomes.filter { $0.outcome == .rejectedByAppAge }.count,
                     rejectedByAttestation: fakeOutcomes.filter { $0.outcome == .rejectedByAttestation }.count,
                     published: fakes.count,
                     publishedEmpty: fakes.filter { $0.disclosure.epochs.isEmpty && $0.disclosure.rxTrace.isEmpty }.count,
                     bytes: fakes.reduce(0) { $0 + $1.bytes }, phonesMatched: matched.count, notifiedOnlyByFakes: onlyFakes.count,
                     notifiedOnlyByFakesExposed: onlyFakes.filter { truth.exposed.contains($0) }.count)
    }

    private func replayReport(shown: ArraySlice<P6PublishedDisclosure>, notified: Set<Int32>) -> P6Summary.Replay {
        let replays = shown.filter { $0.replayAttack != nil }
        let matched = Set(fullMatches.filter { disclosures[Int($0.disclosure)].replayAttack != nil }.map(\.phone))
        let only = notified.filter { phone in matchedDisclosures[phone]?.allSatisfy { disclosures[Int($0)].replayAttack != nil } ?? false }
        let withdrawnOnly = only.filter { withdrawn[$0] != nil }
        let delays = Statistics.sorted(withdrawnOnly.map { Double(withdrawn[$0]! - notifications[$0]!.at) / 3600 })
        let revoked = replays.filter { $0.revocationListedAt != nil }
        let still = matched.filter { notified.contains($0) && withdrawn[$0] == nil }
        var txOfOthers = Set<Int32>()
        for m in fullMatches where m.byTx && still.contains(m.phone) && disclosures[Int(m.disclosure)].replayAttack == nil { txOfOthers.insert(m.phone) }
        return .init(attacks: parameters.attacks.replayAttacks, relaysPerAttack: parameters.attacks.replayRelays, disclosed: replays.count,
                     phonesMatched: matched.count, notifiedOnlyByReplay: only.count, withdrawn: withdrawnOnly.count,
                     withdrawalDelayHours: LatencyHoursSummary(sorted: delays), matchedStillNotified: still.count,
                     matchedStillNotifiedByRxOnly: still.count - txOfOthers.count, revoked: revoked.count,
                     disclosureToRevocationHours: LatencyHoursSummary(sorted: Statistics.sorted(revoked.map { Double($0.revocationListedAt! - $0.at) / 3600 })))
    }

    /// p6_comparison.csv: GAEN's and P6's figures of the same run, side by side.
    private func comparisonTable(gaen: DetectionSummary, p6: P6Summary, distribution: DistributionSummary, uploads: Int,
                                 gaenPayloadBytes: Int64) -> ResultTable {
        let phoneDays = Double(max(1, phones * days))
        var table = ResultTable(columns: ["metric", "gaen", "p6", "note"])
        table.append([.text("index_cases_sharing"), .integer(Int64(uploads)), .integer(Int64(disclosures.count)),
                      .text("GAEN uploads accepted; P6 discloses for exactly those cases")])
        for (key, g, p) in [("notified", gaen.notified, p6.notified), ("true_positives", gaen.truePositives, p6.truePositives),
                            ("false_positives", gaen.falsePositives, p6.falsePositives),
                            ("close_contacts_with_app", gaen.closeContactsWithApp, p6.closeContactsWithApp),
                            ("false_negatives", gaen.falseNegatives, p6.falseNegatives)] {
            table.append([.text(key), .integer(Int64(g)), .integer(Int64(p)), .text("")])
        }
        for (key, g, p) in [("precision", gaen.precision, p6.precision), ("recall", gaen.recall, p6.recall),
                            ("false_positives_per_1000_notified", gaen.falsePositivesPer1000Notified, p6.falsePositivesPer1000Notified)] {
            for part in ProportionSummary.Part.allCases {
                table.append([.text(key + "_" + part.rawValue), g.cell(part), p.cell(part),
                              .text(part == .estimate ? "" : "Clopper-Pearson 95%")])
            }
        }
        for (part, g, p) in [("median", gaen.latencyHours.median, p6.latencyHours.median), ("p90", gaen.latencyHours.p90, p6.latencyHours.p90)] {
            table.append([.text("latency_hours_" + part), g.cell, p.cell, .text("from the index case's test to the notification")])
        }
        let note = "simulated checks: index requests, files, HTTP/TLS overhead; mean over client-days"
        let bytes = p6.bytesPerPhonePerDay
        table.append([.text("bytes_per_phone_per_day"), .number(distribution.bytesPerClientPerDay.mean), .number(bytes.total), .text(note)])
        table.append([.text("payload_bytes_per_phone_per_day"), .number(Double(gaenPayloadBytes) / phoneDays), .number(bytes.payload),
                      .text("GAEN: key packages; P6: disclosure files (Tx + Rx parts)")])
        table.append([.text("tx_part_bytes_per_phone_per_day"), .text("n/a"), .number(bytes.txPart),
                      .text("file and disclosure headers, Tx traces (78 B per epoch)")])
        table.append([.text("rx_part_bytes_per_phone_per_day"), .text("n/a"), .number(bytes.rxPart),
                      .text("disclosed Rx-trace records (9 B each)")])
        return table
    }

    /// Regional streams: per region, its phones, stream, bytes and detections, and the close
    /// contacts missed because every disclosure of their index cases went to streams they do not fetch.
    private func regionalReport(shown: ArraySlice<P6PublishedDisclosure>, truth: ExposureDetection.Truth, notified: Set<Int32>,
                                streamSummaries: [DistributionSummary]) -> (summary: P6Summary.Regions, table: ResultTable) {
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
                          .number(streamSummaries[r].bytesPerClientPerDay.mean),
                          .integer(Int64(notifiedIn[r])), .integer(Int64(eligibleIn[r])), .integer(Int64(missedIn[r])),
                          .integer(Int64(otherRegionIn[r]))])
        }
        let stated = shown.filter { $0.streams.count > 1 }.count
        let summary = P6Summary.Regions(
            count: count, subscription: parameters.subscription.rawValue, statedRegionsShare: parameters.statedRegionsShare,
            disclosuresInSeveralStreams: stated,
            streamsPerDisclosure: shown.isEmpty ? 0 : Double(shown.reduce(0) { $0 + $1.streams.count }) / Double(shown.count),
            falseNegativesOtherRegion: otherRegionIn.reduce(0, +))
        return (summary, table)
    }

    package var rxRecordsPerPhoneDayMean: Double { rxStats.count > 0 ? rxStats.mean : 0 }
}
