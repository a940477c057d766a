import EventEngine
import GSL
import P6
@testable import P6Phones
@testable import Simulation
import Testing
@testable import World

/// P6 phones in ordinary runs, beside GAEN on the same contacts.
@Suite struct P6RunTests {
    /// iPhones never transmit (the seed's worst case), so one run also checks that Tx matching never finds them.
    static func config(p6 enabled: Bool, iosShare: Double = 0, threads: Int = 1) -> SimulationConfig {
        var c = PipelineRunTests.config(.cwa, people: 500, days: 4, casesPerDay: 30, threads: threads, national: 0)
        c.population.iOSShare = 0.5
        c.p6.enabled = enabled
        c.p6.transmit.iosShare = iosShare
        return c
    }

    static func run(_ config: SimulationConfig) -> (Simulation, SimulationResults) {
        let sim = try! Simulation(config: config)
        return (sim, try! sim.run())
    }

    /// Shared by the tests below (Swift Testing runs them in parallel; a static is built once).
    nonisolated(unsafe) static let enabled = run(config(p6: true))

    static func withoutP6(_ r: SimulationResults) -> SimulationResults {
        var summary = r.summary
        summary.p6 = nil
        return SimulationResults(summary: summary, daily: r.daily, hourly: r.hourly,
                                 tables: r.tables.filter { $0.name != "p6_comparison.csv" }, files: r.files)
    }

    /// The compact Rx trace costs fewer bytes for the same records; the per-slice cap withholds
    /// records and can only lose matches; the default (raw, no cap) reports no `rx_trace` block.
    @Test func compactAndSubsampledRxTraces() throws {
        let plain = try #require(Self.enabled.1.summary.p6)
        #expect(plain.rxTrace == nil && plain.disclosedRxRecords > 0)
        var c = Self.config(p6: true)
        c.p6.rxTraceEncoding = .compact
        let compact = try #require(Self.run(c).1.summary.p6)
        #expect(compact.disclosedRxRecords == plain.disclosedRxRecords && compact.notified == plain.notified)
        #expect(compact.disclosureBytes < plain.disclosureBytes && compact.rxTrace?.disclosureBytesRaw == plain.disclosureBytes)
        #expect(compact.bytesPerPhonePerDay.txPart == plain.bytesPerPhonePerDay.txPart)
        #expect(compact.bytesPerPhonePerDay.rxPart < plain.bytesPerPhonePerDay.rxPart)
        c.p6.rxRecordsPerSlice = 1
        let capped = try #require(Self.run(c).1.summary.p6)
        let withheld = try #require(capped.rxTrace?.recordsWithheld)
        #expect(withheld > 0 && capped.disclosedRxRecords == plain.disclosedRxRecords - withheld)
        #expect(capped.truePositives <= plain.truePositives)
    }

    /// A lower transmit power is heard less; GAEN, on its own streams, is untouched.
    @Test func lowerTransmitPowerIsHeardLess() throws {
        let (_, plain) = Self.enabled
        var c = Self.config(p6: true)
        c.p6.txPowerReductionDB = 25
        let (_, quiet) = Self.run(c)
        let a = try #require(plain.summary.p6), b = try #require(quiet.summary.p6)
        #expect(b.rxRecordsPerPhoneDay < a.rxRecordsPerPhoneDay && b.notified <= a.notified)
        #expect(quiet.summary.detection == plain.summary.detection)
    }

    /// Records received at home stay on the phone: the disclosed ones and the withheld ones add up
    /// to the complete trace, and fewer records can only lose matches.
    @Test func recordsReceivedAtHomeAreWithheld() throws {
        let plain = try #require(Self.enabled.1.summary.p6)
        var c = Self.config(p6: true)
        c.p6.withholdAtHome = true
        let home = try #require(Self.run(c).1.summary.p6)
        let withheld = try #require(home.rxTrace?.recordsWithheldAtHome)
        #expect(withheld > 0 && home.disclosedRxRecords + withheld == plain.disclosedRxRecords)
        #expect(home.disclosureBytes < plain.disclosureBytes && home.truePositives <= plain.truePositives)
        #expect(home.rxFullMatches <= plain.rxFullMatches && home.txFullMatches == plain.txFullMatches)
    }

    /// Revoked disclosures withdraw exactly the notifications whose every matched disclosure is
    /// revoked, after the revocation list is published, whatever the thread count.
    @Test func revocationWithdrawsNotificationsOfRevokedDisclosuresOnly() throws {
        #expect(try #require(Self.enabled.1.summary.p6).revocation == nil)
        var c = Self.config(p6: true)
        c.p6.revokedShare = 0.5
        c.p6.revocationDelaySeconds = 3_600
        let (sim, results) = Self.run(c)
        let p6run = try #require(sim.p6)
        let revocation = try #require(results.summary.p6?.revocation)
        #expect(revocation.revokedDisclosures > 0 && revocation.notificationsWithdrawn > 0)
        #expect(revocation.notifiedAfterRevocation == results.summary.p6!.notified - revocation.notificationsWithdrawn)
        for (phone, at) in p6run.withdrawn {
            let matched = Set(p6run.fullMatches.filter { $0.phone == phone }.map(\.disclosure))
            #expect(!matched.isEmpty && matched.allSatisfy { p6run.disclosures[Int($0)].revocationListedAt.map { $0 <= at } ?? false })
            #expect(at >= p6run.notifications[phone]!.at)
        }
        c.threads = 2
        #expect(Self.run(c).1.summary.p6?.revocation == revocation)
        // Without revocation every other figure is the same: the list changes no draw.
        var withoutList = try #require(results.summary.p6)
        withoutList.revocation = nil
        c.p6.revokedShare = 0
        c.threads = 1
        #expect(Self.run(c).1.summary.p6 == withoutList)
    }

    @Test func offByDefaultAndGAENResultsDoNotChangeWhenOn() throws {
        #expect(!P6RunParameters.default.enabled && !SimulationConfig(name: "x", seed: 1, start: 0, days: 1,
                                                                      population: PopulationParameters(size: 1, appAdoption: 0.5)).p6.enabled)
        let (_, off) = Self.run(Self.config(p6: false))
        #expect(off.summary.p6 == nil && !off.tables.contains { $0.name == "p6_comparison.csv" })
        // P6 draws from its own streams: every GAEN figure is the same with it on.
        #expect(Self.withoutP6(Self.enabled.1) == off)
        let p6 = try #require(Self.enabled.1.summary.p6)
        #expect(p6.latencyHours.count == p6.notified)
        // Notifications come from files published after the case's upload, so after its test.
        if let median = p6.latencyHours.median.value { #expect(median > 0) } else { Issue.record("no latency") }
    }

    @Test func identicalWhateverTheThreads() {
        let (_, three) = Self.run(Self.config(p6: true, threads: 3))
        #expect(three == Self.enabled.1)
        #expect((three.summary.p6?.txFullMatches ?? 0) > 0)
    }

    /// Tx full matches are exactly the library's `P6Matcher.match` of each disclosed epoch against
    /// the phone's Rx trace, found at phones that met the case that day (close contacts among
    /// them), never at phones that did not meet it.
    @Test func disclosedEpochsMatchWhereTheCaseWasHeard() throws {
        let (sim, _) = Self.enabled
        let p6 = try #require(sim.p6)
        let owners = sim.fleet.owners
        var phoneOf: [Int32: Int32] = [:]
        for (phone, person) in owners.enumerated() { phoneOf[person] = Int32(phone) }
        var mine: [String: Int] = [:]
        for m in p6.fullMatches where m.byTx { mine["\(m.phone) \(m.disclosure) \(m.start / SimDuration.day)", default: 0] += 1 }
        #expect(!mine.isEmpty)
        var checked = 0, closeWithMatch = 0
        for (d, published) in p6.disclosures.enumerated() {
            for epoch in published.disclosure.epochs {
                let dayIndex = Int((epoch.start - sim.config.start) / SimDuration.day)
                guard dayIndex >= 0, let truth = sim.groundTruth.first(where: { $0.dayIndex == dayIndex }) else { continue }
                var met = Set<Int32>()
                for pair in truth.pairs {
                    let a = Int32(truncatingIfNeeded: pair >> 32), b = Int32(truncatingIfNeeded: pair & 0xffff_ffff)
                    if a == published.person, let p = phoneOf[b] { met.insert(p) }
                    if b == published.person, let p = phoneOf[a] { met.insert(p) }
                }
                // Phones match a disclosure once they fetched its file.
                for phone in 0..<Int32(owners.count) where phone != published.phone && p6.downloads.hasFetched(phone: Int(phone), disclosure: d) {
                    let key = "\(phone) \(d) \(epoch.start / SimDuration.day)"
                    guard met.contains(phone) else {
                        #expect(mine[key] == nil, "Tx match at a phone that never met the case")
                        continue
                    }
                    let trace = p6.rx.days.flatMap { $0.trace(Int(phone)) }
                    let library = P6Matcher.match(epoch: epoch, rxTrace: trace).matches.count
                    #expect((mine[key] ?? 0) == library)
                    checked += 1
                    if library > 0 && truth.isCloseContact(published.person, owners[Int(phone)]) { closeWithMatch += 1 }
                }
            }
        }
        #expect(checked > 50 && closeWithMatch > 5)
    }

    /// Rx co-location full matches are exactly the library's `P6Matcher.matchRx` of each disclosed
    /// Rx trace against every other phone's trace, up to the disclosure time.
    @Test func rxCoLocationMatchesAreTheLibrarys() throws {
        let (sim, _) = Self.enabled
        let p6 = try #require(sim.p6)
        var mine: [String: Int] = [:]
        for m in p6.fullMatches where !m.byTx { mine["\(m.phone) \(m.disclosure)", default: 0] += 1 }
        let traces = (0..<sim.fleet.count).map { phone in p6.rx.days.flatMap { $0.trace(phone) } }
        var found = 0
        for (d, published) in p6.disclosures.enumerated() where !published.disclosure.rxTrace.isEmpty {
            for phone in traces.indices where phone != Int(published.phone) && p6.downloads.hasFetched(phone: phone, disclosure: d) {
                let library = P6Matcher.matchRx(disclosed: published.disclosure.rxTrace, local: traces[phone], notAfter: published.at)
                #expect((mine["\(phone) \(d)"] ?? 0) == library.fullMatches.count)
                found += library.fullMatches.count
            }
        }
        #expect(found > 0)
    }

    /// Disclosure files go through the distribution model: each phone fetches every file once,
    /// in order, at its own check times; it is notified when it fetched the file.
    @Test func phonesFetchDisclosureFilesAndAreNotifiedWhenTheyDo() throws {
        let (sim, results) = Self.enabled
        let p6 = try #require(sim.p6)
        let files = p6.downloads.files
        #expect(files.count > 3)
        for f in files {
            for d in f.disclosures.map(Int.init) { #expect(p6.disclosures[d].fileTime == f.publishedAt && p6.disclosures[d].at < f.publishedAt) }
        }
        for (phone, n) in p6.notifications {
            #expect(p6.downloads.hasFetched(phone: Int(phone), disclosure: Int(n.disclosure)))
            #expect(n.at >= p6.disclosures[Int(n.disclosure)].fileTime)
        }
        var tx: Int64 = 0, rx: Int64 = 0
        for phone in 0..<p6.phones {
            for f in files.prefix(Int(p6.downloads.streams[0].fetched[phone])) { tx += Int64(f.txBytes); rx += Int64(f.rxBytes) }
        }
        #expect(tx == p6.downloads.txBytes && rx == p6.downloads.rxBytes && rx > tx)
        let summary = try #require(results.summary.p6)
        let bytes = summary.bytesPerPhonePerDay
        let phoneDays = Double(p6.phones * p6.days)
        #expect(bytes.txPart == Double(tx) / phoneDays && bytes.rxPart == Double(rx) / phoneDays)
        #expect(bytes.payload == Double(tx + rx) / phoneDays)
        #expect(bytes.total > bytes.payload)
        // Not every phone fetches a file as soon as it is out (check schedule, offline days, deferrals).
        guard case .single(let download) = summary.download else { Issue.record("one stream expected"); return }
        #expect(download.latencyMinutes.p90 > 60)
    }

    @Test func iPhonesThatNeverTransmitAreNeverFoundByTxMatching() throws {
        let (sim, results) = Self.enabled
        let p6 = try #require(sim.p6)
        let iosDisclosers = p6.disclosures.filter { p6.phoneIsIOS[Int($0.phone)] }.count
        #expect(iosDisclosers > 0 && iosDisclosers < p6.disclosures.count)
        let tx = p6.fullMatches.filter(\.byTx)
        #expect(!tx.isEmpty)
        #expect(tx.allSatisfy { !p6.phoneIsIOS[Int(p6.disclosures[Int($0.disclosure)].phone)] })
        #expect(results.summary.p6?.txFullMatches == tx.count)
    }
}
