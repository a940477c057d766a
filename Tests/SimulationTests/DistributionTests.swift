@testable import Detection
@testable import Distribution
import EventEngine
import Foundation
import GAEN
import GSL
@testable import HealthBackend
@testable import Simulation
@testable import SimulationCore
import Testing

@Suite struct DistributionTests {
    let start = CivilCalendar.time(year: 2020, month: 10, day: 1)

    /// No offline days, deferrals or CDN errors: the bare schedule.
    static var quiet: DistributionParameters {
        var p = DistributionParameters()
        p.offlineShareIOS = 0; p.offlineShareAndroid = 0
        p.deferralShareIOS = 0; p.deferralShareAndroid = 0
        p.cdnErrorRate = 0
        return p
    }

    func model(_ p: DistributionParameters, _ flavor: DistributionFlavor, contact: Int, seed: UInt64 = 3,
               threads: Int = 1) -> DistributionModel {
        let m = DistributionModel(parameters: p, flavor: flavor, seed: seed, start: start,
                                  contactPhoneIsIOS: (0..<contact).map { $0 % 3 == 0 }, threads: threads)
        m.foldsLoad = false
        return m
    }

    /// Seconds (since start) at which a model's clients made requests.
    func requestSeconds(_ m: DistributionModel) -> [Int] {
        let end = 60 * (m.shards.map(\.core.counters.endMinute).max() ?? 0)
        return (0..<end).flatMap { s in repeatElement(s, count: m.shards.reduce(0) { $0 + Int($1.core.counters.requests(second: s)) }) }
    }

    /// A download is 16 bytes (a national day holds tens of millions) and keeps its package's sequence.
    @Test func downloadsTakeSixteenBytes() {
        var d = PackageDownload(phone: 3, package: 9_000, at: 1_600_000_000)
        #expect(MemoryLayout<PackageDownload>.stride == 16 && d.package == 9_000 && d.phone == 3 && d.at == 1_600_000_000)
        d.package = 12
        #expect(d == PackageDownload(phone: 3, package: 12, at: 1_600_000_000) && d != PackageDownload(phone: 3, package: 13, at: 1_600_000_000))
    }

    @Test func defaultsAreTheSeedsAndDocumentedValues() {
        let p = DistributionParameters.default
        #expect(p.checkIntervalSeconds == 3_600 && p.checkJitterSeconds == 3_600)   // CWA: next interval + random(3600)
        #expect(p.retryInitialSeconds == 30 && p.retryFactor == 2 && p.retryMaxSeconds == 18_000)  // WorkManager
        #expect(p.retryMaxAttempts == 5)
        #expect(p.httpOverheadBytes == 600 && p.sessionOverheadBytes == 4_500)
        #expect(p.cdnErrorRate == 0.001 && p.outageDurationSeconds == 0)
        #expect(CWASeedEstimate.requestsPerDay == 720e6 && CWASeedEstimate.terabytesPerDay == 42.8)
    }

    /// Check times modulo the hour are uniform on [0, 3600): chi-square over 36 bins (GSL).
    @Test func scheduleOffsetsAreUniformOverTheHour() {
        var p = Self.quiet
        p.clients = 3_000
        let run = model(p, .immuni, contact: 0, seed: 11)
        _ = run.advance(until: start + 12 * 3_600)
        let seconds = requestSeconds(run)
        #expect(seconds.count == 3_000 * 12)      // one check per client and hour
        var bins = [Int](repeating: 0, count: 36)
        for s in seconds { bins[(s % 3_600) / 100] += 1 }
        let fit = GoodnessOfFit.chiSquare(observed: bins, expected: Array(repeating: Double(seconds.count) / 36, count: 36))
        #expect(fit.pValue > 0.001, "chi-square \(fit.statistic), p = \(fit.pValue)")
        // And every hour holds exactly one check per client.
        for h in 0..<12 { #expect(seconds.filter { $0 / 3_600 == h }.count == 3_000) }
    }

    @Test func backoffGrowsAndIsCapped() {
        var p = Self.quiet
        p.retryMaxSeconds = 200
        #expect((1...6).map { p.retryBase(attempt: $0) } == [30, 60, 120, 200, 200, 200])
        p.retryMaxAttempts = 5
        p.outageStartSeconds = 0
        p.outageDurationSeconds = 86_400
        // Clients whose every request fails: delays between sessions follow the backoff.
        var delays = [[Int]](repeating: [], count: 6)
        for seed in UInt64(1)...40 {
            let m = model(p, .immuni, contact: 1, seed: seed)
            _ = m.advance(until: start + 3 * 3_600)
            let t = requestSeconds(m)
            // first session, 5 retries, then the regular schedule
            #expect(t.count >= 6)
            for k in 1...5 { delays[k].append(t[k] - t[k - 1]) }
        }
        for k in 1...5 {
            let base = p.retryBase(attempt: k)
            #expect(delays[k].allSatisfy { Double($0) >= base / 2 - 1 && Double($0) <= base + 1 }, "attempt \(k): \(delays[k])")
        }
        let means = (1...5).map { Statistics.mean(delays[$0].map(Double.init)) }
        #expect(means[0] < means[1] && means[1] < means[2])   // grows
        #expect(delays[4].max()! <= 201 && delays[5].max()! <= 201)  // capped
        let m = model(p, .immuni, contact: 1, seed: 1)
        _ = m.advance(until: start + 86_400)
        #expect(m.results().summary.errors == m.results().summary.requests)
        #expect(m.results().summary.retryRequests > 0)
    }

    /// A phone offline for three days catches up: whole missed days as daily packages, the rest
    /// as hourly ones, every package once, every hour covered exactly once.
    @Test func phoneOfflineThreeDaysDownloadsEachMissingPackageOnce() throws {
        let packages = try SyntheticPackages.make(flavor: .cwa, start: start, days: 6, casesPerDay: 48, keysPerCase: 2, seed: 5)
        let m = model(Self.quiet, .cwa, contact: 1)
        m.setOffline(client: 0, during: (start + 86_400 + 10 * 3_600)..<(start + 4 * 86_400 + 9 * 3_600))
        m.publish(packages)
        var downloads: [PackageDownload] = []
        for day in 1...6 { downloads += m.advance(until: start + Int64(day) * 86_400) }
        let sequences = downloads.map(\.package)
        #expect(Set(sequences).count == sequences.count)
        // Hours covered: an hourly package covers its hour, a daily one its 24 hours.
        var covered = [Int: Int]()
        for s in sequences {
            let p = packages[s]
            var h = p.covers.lowerBound
            while h < p.covers.upperBound { covered[Int((h - start) / 3_600), default: 0] += 1; h += 3_600 }
        }
        let lastSeen = m.catalog.visibleCount(at: downloads.last!.at)
        let hoursPublished = packages.prefix(lastSeen).filter { $0.kind == .hourly }.map { Int(($0.covers.lowerBound - start) / 3_600) }
        #expect(hoursPublished.allSatisfy { covered[$0] == 1 }, "hours missing or twice")
        #expect(covered.keys.count == hoursPublished.count)
        // Days 2 and 3 were missed entirely, so they come as daily packages on return.
        let dailies = sequences.filter { packages[$0].kind == .daily }.map { packages[$0].covers.lowerBound }
        #expect(dailies == [start + 2 * 86_400, start + 3 * 86_400])
        let firstBack = downloads.first { $0.at >= start + 4 * 86_400 + 9 * 3_600 }!
        #expect(downloads.filter { $0.at == firstBack.at }.count >= 2 + 9)
    }

    /// Package requests are billed at the zip's real size, and the zips are real signed exports.
    /// A contact phone whose app cannot run on a day (phone off, force-closed, uninstalled in the
    /// simulation) makes no request that day and fetches what it missed the next day; the others
    /// are unaffected.
    @Test func contactPhonesUnavailableForADayCatchUpAfterwards() throws {
        let packages = try SyntheticPackages.make(flavor: .cwa, start: start, days: 3, casesPerDay: 48, keysPerCase: 2, seed: 5)
        func run(unavailableOnDay1: [Bool]) -> [[PackageDownload]] {
            let m = model(Self.quiet, .cwa, contact: 3)
            m.publish(packages)
            return (1...3).map { day in m.advance(until: start + Int64(day) * 86_400, unavailableContactPhones: day == 2 ? unavailableOnDay1 : []) }
        }
        let normal = run(unavailableOnDay1: []), blocked = run(unavailableOnDay1: [false, true, false])
        #expect(normal[1].contains { $0.phone == 1 } && !blocked[1].contains { $0.phone == 1 })
        for day in 0..<3 { #expect(normal[day].filter { $0.phone != 1 } == blocked[day].filter { $0.phone != 1 }) }
        // Day 2's first check fetches everything published meanwhile, each hour exactly once.
        let missed = Set(normal[1].filter { $0.phone == 1 }.map(\.package))
        let caughtUp = blocked[2].filter { $0.phone == 1 }
        #expect(!missed.isEmpty && Set(caughtUp.map(\.package)).count == caughtUp.count)
        let hours = { (ds: [PackageDownload]) in Set(ds.flatMap { d -> [Int64] in
            let p = packages[d.package]; return Array(stride(from: p.covers.lowerBound, to: p.covers.upperBound, by: 3_600)) }) }
        #expect(hours(normal[1].filter { $0.phone == 1 } + normal[2].filter { $0.phone == 1 })
                == hours(caughtUp))
    }

    /// Folding finished minutes into the run's history (so shards hold a day of counters, not the
    /// whole run) changes no figure and no table row, whether advanced by day or by hour.
    @Test func foldedLoadHistoryGivesTheSameResults() throws {
        let packages = try SyntheticPackages.make(flavor: .cwa, start: start, days: 3, casesPerDay: 48, keysPerCase: 2, seed: 5)
        var p = DistributionParameters.default
        p.clients = 400
        func run(folds: Bool, step: Int64) -> DistributionResults {
            let m = model(p, .cwa, contact: 30, threads: 3)
            m.foldsLoad = folds
            m.publish(packages)
            for t in stride(from: start + step, through: start + 3 * 86_400, by: Int(step)) {
                _ = m.advance(until: t)
                // Hours already sent as distribution_hourly.csv rows are not kept.
                #expect(m.history.bins - m.history.firstBin <= (folds ? 1 + Int(step) / 3_600 : 0) + 1)
            }
            if m.now < start + 3 * 86_400 { _ = m.advance(until: start + 3 * 86_400) }
            return m.results()
        }
        let whole = run(folds: false, step: 86_400)
        for (folds, step) in [(true, Int64(86_400)), (true, 3_600), (true, 3_599)] {
            let folded = run(folds: folds, step: step)
            #expect(folded.summary == whole.summary, "step \(step)")
            #expect(folded.perMinute == whole.perMinute && folded.hourly == whole.hourly && folded.latency == whole.latency, "step \(step)")
        }
        #expect(whole.summary.peakRequestsPerSecond > 0 && whole.perMinute?.rows.count == 3 * 1_440)
        // Without the per-minute table the load is kept per hour: the same summary and hourly table.
        p.writesMinutes = false
        for step in [Int64(86_400), 3_599] {
            let hourly = run(folds: true, step: step)
            #expect(hourly.summary == whole.summary && hourly.hourly == whole.hourly && hourly.perMinute == nil, "step \(step)")
            #expect(!hourly.tables.map(\.name).contains("distribution_minutes.csv"))
        }
    }

    @Test func bytesPerPackageRequestAreTheZipSizes() throws {
        let made = try SyntheticPackages.makeWithArchives(flavor: .immuni, start: start, days: 1, casesPerDay: 100, seed: 2)
        for (p, zip) in made.prefix(3) {
            #expect(p.bytes == zip.count)
            let parsed = try ExportReader.parse(archive: Data(zip))
            #expect(parsed.export.keys.count == p.keys.count)
        }
        var params = Self.quiet
        params.clients = 50
        let m = model(params, .immuni, contact: 10)
        m.publish(made.map(\.package))
        var downloads: [PackageDownload] = []
        downloads += m.advance(until: start + 86_400 + 3_600)
        let summary = m.results().summary
        let table = try #require(m.results().perMinute)
        let packageBytes = table.column("package_bytes").reduce(0) { $0 + Int($1.intValue!) }
        let clientDownloads = summary.packagesDownloaded
        #expect(clientDownloads == 50 * 24)
        #expect(packageBytes == 50 * made.reduce(0) { $0 + $1.package.bytes })
        #expect(downloads.count == 10 * 24)
        // Total bytes = headers per request + TLS per session + index bodies + package bytes.
        let requests = summary.requests, sessions = summary.sessions
        let bytes = summary.bytes
        let indexBodies = bytes - packageBytes - requests * params.httpOverheadBytes - sessions * params.sessionOverheadBytes
        #expect(indexBodies > 0 && indexBodies < sessions * 40)
    }

    /// Immuni, offline days with probability p, no deferral or errors. On day d a client online
    /// that day makes 24 index requests and fetches every chunk since its last online day:
    /// E[requests] = (1 − p) · E[24 + chunks], computed exactly; checked within a 99.9% interval.
    @Test func tenThousandClientsMatchTheClosedFormRequestsPerDay() throws {
        let p = 0.2, n = 10_000, day = 2
        var params = Self.quiet
        params.clients = n
        params.offlineShareIOS = p; params.offlineShareAndroid = p
        let packages = try SyntheticPackages.make(flavor: .immuni, start: start, days: 3, casesPerDay: 24, keysPerCase: 1, seed: 9)
        let m = model(params, .immuni, contact: 0, threads: 2)
        m.publish(packages)
        _ = m.advance(until: start + Int64(day + 1) * 86_400)
        // Chunks visible at the last check of day d (published at 01:00 … 24:00): V(d) = 24d + 23.
        func visible(_ d: Int) -> Double { d < 0 ? 0 : Double(24 * d + 23) }
        var mean = 0.0, square = 0.0
        for back in 1...(day + 1) {   // previous online day d − back, or none (back = day + 1)
            let probability = back <= day ? pow(p, Double(back - 1)) * (1 - p) : pow(p, Double(day))
            let x = 24 + visible(day) - visible(day - back)
            mean += probability * x
            square += probability * x * x
        }
        let expected = Double(n) * (1 - p) * mean
        let variance = Double(n) * ((1 - p) * square - pow((1 - p) * mean, 2))
        let observed = m.results().hourly!.rows[(day * 24)..<((day + 1) * 24)]
            .reduce(0) { $0 + Int($1[2].intValue!) }
        let halfWidth = 3.29 * variance.squareRoot()
        #expect(abs(Double(observed) - expected) <= halfWidth, "observed \(observed), expected \(expected) ± \(halfWidth)")
    }

    @Test func resultsDoNotDependOnThreads() throws {
        let packages = try SyntheticPackages.make(flavor: .cwa, start: start, days: 2, casesPerDay: 48, keysPerCase: 2, seed: 4)
        var params = DistributionParameters()
        params.clients = 3_000
        params.cdnErrorRate = 0.02
        params.outageStartSeconds = 30 * 3_600
        params.outageDurationSeconds = 1_800
        func run(_ threads: Int) -> ([PackageDownload], DistributionResults, [[Int]]) {
            let m = model(params, .cwa, contact: 500, threads: threads)
            // Several shards a thread, handed out to whichever thread is free.
            #expect(m.shards.count == (threads == 1 ? 1 : threads * DistributionModel.shardsPerThread))
            m.publish(packages)
            var d = m.advance(until: start + 20 * 3_600)
            d += m.advance(until: start + 2 * 86_400)
            return (d, m.results(), m.bytesPerClientDay())
        }
        let (d1, r1, b1) = run(1), (d3, r3, b3) = run(3)
        #expect(d1 == d3)
        #expect(b1 == b3)
        #expect(r1.summary == r3.summary)
        #expect(r1.hourly == r3.hourly && r1.perMinute == r3.perMinute && r1.latency == r3.latency)
        #expect(r1.summary.notFound404 > 0)
        #expect(r1.summary.retryRequests > 0)
    }
}

private extension ResultTable.Cell {
    var intValue: Int64? { if case .integer(let v) = self { return v }; return nil }
}
