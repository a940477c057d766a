import EventEngine
import GSL

extension KeySubmissionPipeline {
    /// summary.json's `health` section: index cases and the funnel to published keys.
    public func healthSummary() -> ReportValue {
        let f = funnel
        func quantile(_ values: [Double], _ p: Double) -> ReportValue {
            values.isEmpty ? .text("n/a") : .number(Statistics.quantile(sorted: values, p))
        }
        let delays = Statistics.sorted(testToPublicationHours)
        let fromInfection = Statistics.sorted(infectionToPublicationDays)
        let infectionToTest = Statistics.sorted(positiveCases.map { Double($0.testedAt - $0.infectedAt) / Double(SimDuration.day) })
        return .object([
            ("index_cases", .integer(Int64(f.indexCases))),
            ("results_delivered", .integer(Int64(positiveCases.count))),
            ("app_user_share", .interval(Proportion.clopperPearson(successes: f.appUsers, trials: max(positiveCases.count, 1)))),
            ("funnel", .object([
                ("app_users", .integer(Int64(f.appUsers))),
                ("result_in_app", .integer(Int64(f.resultInApp))),
                ("teletan", .integer(Int64(f.teleTAN))),
                ("consented", .integer(Int64(f.consented))),
                ("verified", .integer(Int64(f.verified))),
                ("uploaded", .integer(Int64(f.uploaded))),
                ("published", .integer(Int64(f.published))),
                ("lost_no_consent", .integer(Int64(f.lostNoConsent))),
                ("lost_verification_dropout", .integer(Int64(f.lostVerificationDropout))),
                ("lost_otp_gave_up", .integer(Int64(f.lostOTPGaveUp))),
                ("lost_upload_rejected", .integer(Int64(f.lostRejected))),
            ])),
            ("upload_share_of_app_users", .interval(Proportion.clopperPearson(successes: f.uploaded, trials: max(f.appUsers, 1)))),
            ("infection_to_test_days_median", quantile(infectionToTest, 0.5)),
            ("test_to_publication_hours_median", quantile(delays, 0.5)),
            ("test_to_publication_hours_p90", quantile(delays, 0.9)),
            ("infection_to_publication_days_median", quantile(fromInfection, 0.5)),
            ("infection_to_publication_days_p90", quantile(fromInfection, 0.9)),
        ])
    }

    /// summary.json's `backend` section: requests, rejections, keys, packages and bytes.
    public func backendSummary() -> ReportValue {
        let total = hourly.reduce(BackendHour(), +)
        let packages = publisher.published
        let bytes = packages.reduce(0) { $0 + Int64($1.bytes) }
        let endpoints = Endpoint.allCases.filter { $0.flavor == parameters.flavor }
        var entries: [(String, ReportValue)] = [
            ("flavor", .text(parameters.flavor.rawValue)),
            ("requests_total", .integer(requests.reduce(0, +))),
            ("requests_by_endpoint", .object(endpoints.map { ($0.path, .integer(requests[$0.rawValue])) })),
            ("result_polls", .integer(ledger.polls)),
            ("auth_failures", .object(AuthFailure.allCases.map { ($0.rawValue, .integer(ledger.authFailures[$0.index])) })),
            ("upload_rejections", .object(RejectionReason.allCases.map { ($0.rawValue, .integer(ledger.rejections[$0.index])) })),
            ("uploads", .object([
                ("real", .integer(total.realUploads)), ("dummy", .integer(total.dummyUploads)),
                ("national", .integer(total.nationalUploads)), ("rejected", .integer(total.rejectedUploads)),
                ("bytes", .integer(total.uploadBytes)),
            ])),
            ("keys", .object([
                ("received", .integer(total.keysReceived)), ("rejected", .integer(total.keysRejected)),
                ("published", .integer(total.keysPublished)), ("padding", .integer(ledger.paddingKeys)),
                ("dropped_current_day", .integer(ledger.keysDroppedCurrentDay)),
                ("expired_unpublished", .integer(Int64(publisher.keysExpiredUnpublished))),
                ("pending_at_end", .integer(Int64(publisher.pendingKeyCount))),
            ])),
            ("packages", .object([
                ("published", .integer(Int64(packages.count))),
                ("hourly", .integer(Int64(packages.filter { $0.kind == .hourly }.count))),
                ("daily", .integer(Int64(packages.filter { $0.kind == .daily }.count))),
                ("batches", .integer(Int64(packages.filter { $0.kind == .batch }.count))),
                ("empty", .integer(Int64(publisher.emptyPackages))),
                ("deleted_by_retention", .integer(Int64(publisher.packagesDeleted))),
                ("on_cdn_at_end", .integer(Int64(publisher.available.count))),
                ("bytes", .integer(bytes)),
                ("max_keys", .integer(Int64(packages.map(\.keys.count).max() ?? 0))),
            ])),
        ]
        if parameters.flavor == .immuni {
            entries.append(("otp", .object([("typos_caught_by_check_character", .integer(ledger.otpTyposCaught)),
                                            ("typos_authorised", .integer(ledger.otpTyposUncaught))])))
            if let index = publisher.chunkIndex {
                entries.append(("keys_index", .object([("oldest", .integer(Int64(index.oldest))), ("newest", .integer(Int64(index.newest)))])))
            }
        }
        return .object(entries)
    }

    /// Columns added to daily.csv and hourly.csv.
    static var columns: [String] { BackendHour.columns }

    func hourValues(_ h: Int) -> [ReportValue] { hourly[h].values.map { .integer($0) } }

    func dayValues(_ d: Int) -> [ReportValue] {
        hourly[(d * 24)..<min(hourly.count, d * 24 + 24)].reduce(BackendHour(), +).values.map { .integer($0) }
    }

    /// packages.csv: one row per published package.
    public func packageTable() -> ResultTable {
        var t = ResultTable(columns: ["sequence", "name", "kind", "published_at", "keys", "keys_from_population", "bytes"])
        for p in publisher.published {
            t.append([.integer(Int64(p.sequence)), .text(p.name), .text(p.kind.rawValue), .text(CivilCalendar.isoDateTimeString(p.publishedAt)),
                      .integer(Int64(p.keys.count)), .integer(Int64(p.keys.filter { $0.uploader >= 0 }.count)), .integer(Int64(p.bytes))])
        }
        return t
    }
}
