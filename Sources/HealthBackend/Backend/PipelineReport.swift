import EventEngine
import GSL
import SimulationCore

extension KeySubmissionPipeline {
    /// summary.json's `health` section: index cases and the funnel to published keys.
    public func healthSummary() -> HealthSummary {
        let f = funnel
        let delays = Statistics.sorted(testToPublicationHours)
        let fromInfection = Statistics.sorted(infectionToPublicationDays)
        let infectionToTest = Statistics.sorted(positiveCases.map { Double($0.testedAt - $0.infectedAt) / Double(SimDuration.day) })
        return HealthSummary(
            indexCases: f.indexCases,
            resultsDelivered: positiveCases.count,
            appUserShare: IntervalSummary(Proportion.clopperPearson(successes: f.appUsers, trials: max(positiveCases.count, 1))),
            funnel: f,
            uploadShareOfAppUsers: IntervalSummary(Proportion.clopperPearson(successes: f.uploaded, trials: max(f.appUsers, 1))),
            infectionToTestDaysMedian: Quantile(sorted: infectionToTest, 0.5),
            testToPublicationHoursMedian: Quantile(sorted: delays, 0.5),
            testToPublicationHoursP90: Quantile(sorted: delays, 0.9),
            infectionToPublicationDaysMedian: Quantile(sorted: fromInfection, 0.5),
            infectionToPublicationDaysP90: Quantile(sorted: fromInfection, 0.9))
    }

    /// summary.json's `backend` section: requests, rejections, keys, packages and bytes.
    public func backendSummary() -> BackendSummary {
        let total = hourly.reduce(BackendHour(), +)
        let packages = publisher.published
        let endpoints = Endpoint.allCases.filter { $0.flavor == parameters.flavor }
        let immuni = parameters.flavor == .immuni
        return BackendSummary(
            flavor: parameters.flavor.rawValue,
            requestsTotal: requests.reduce(0, +),
            requestsByEndpoint: NamedValues(endpoints.map { ($0.path, requests[$0.rawValue]) }),
            resultPolls: ledger.polls,
            authFailures: NamedValues(AuthFailure.allCases.map { ($0.rawValue, ledger.authFailures[$0.index]) }),
            uploadRejections: NamedValues(RejectionReason.allCases.map { ($0.rawValue, ledger.rejections[$0.index]) }),
            uploads: .init(real: total.realUploads, dummy: total.dummyUploads, national: total.nationalUploads,
                           rejected: total.rejectedUploads, bytes: total.uploadBytes),
            keys: .init(received: total.keysReceived, rejected: total.keysRejected, published: total.keysPublished,
                        padding: ledger.paddingKeys, droppedCurrentDay: ledger.keysDroppedCurrentDay,
                        expiredUnpublished: publisher.keysExpiredUnpublished, pendingAtEnd: publisher.pendingKeyCount,
                        efgs: parameters.efgsKeysPerDay > 0 ? ledger.federationKeys : nil,
                        droppedBeforeOnset: immuni && parameters.immuniKeysFromOnset ? ledger.keysDroppedBeforeOnset : nil),
            packages: .init(published: packages.count, hourly: packages.lazy.filter { $0.kind == .hourly }.count,
                            daily: packages.lazy.filter { $0.kind == .daily }.count, batches: packages.lazy.filter { $0.kind == .batch }.count,
                            empty: publisher.emptyPackages, deletedByRetention: publisher.packagesDeleted,
                            onCDNAtEnd: publisher.available.count, bytes: packages.reduce(0) { $0 + Int64($1.bytes) },
                            maxKeys: packages.lazy.map(\.keys.count).max() ?? 0),
            otp: immuni ? .init(caughtByCheckCharacter: ledger.otpTyposCaught, authorised: ledger.otpTyposUncaught) : nil,
            keysIndex: immuni ? publisher.chunkIndex.map { .init(oldest: $0.oldest, newest: $0.newest) } : nil,
            uploadFailures: context.failures.summary(),
            teleTANAfterTokenLoss: !immuni && parameters.cwaTokenLossShare > 0 ? ledger.tokenLossTeleTANs : nil)
    }

    /// Columns added to daily.csv and hourly.csv.
    package static var columns: [String] { BackendHour.columns }

    package func dayValues(_ d: Int) -> [ResultTable.Cell] {
        hourly[(d * 24)..<min(hourly.count, d * 24 + 24)].reduce(BackendHour(), +).values.map { .integer($0) }
    }

    /// packages.csv: one row per published package (made as it is written).
    public func packageTable() -> ResultTable {
        let packages = publisher.published
        return .computed(columns: ["sequence", "name", "kind", "published_at", "keys", "keys_from_population", "bytes"],
                         count: packages.count) { i in
            let p = packages[i]
            return [.integer(Int64(p.sequence)), .text(p.name), .text(p.kind.rawValue), .text(CivilCalendar.isoDateTimeString(p.publishedAt)),
                    .integer(Int64(p.keys.count)), .integer(Int64(p.keys.filter { $0.uploader >= 0 }.count)), .integer(Int64(p.bytes))]
        }
    }
}
