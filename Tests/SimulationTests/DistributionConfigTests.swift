@testable import Distribution
import EventEngine
@testable import HealthBackend
import SimulationCore
import Testing

/// Issue 19: configuration downloads in the CDN load, and clients skipping empty packages.
@Suite struct DistributionConfigAndEmptyPackageTests {
    let start = CivilCalendar.time(year: 2020, month: 10, day: 1)

    func run(_ p: DistributionParameters, _ flavor: DistributionFlavor, _ packages: [PublishedPackage], days: Int64)
        -> (downloads: [PackageDownload], results: DistributionResults, model: DistributionModel) {
        let m = DistributionModel(parameters: p, flavor: flavor, seed: 3, start: start,
                                  contactPhoneIsIOS: (0..<6).map { $0 % 3 == 0 }, threads: 1)
        m.publish(packages)
        var downloads: [PackageDownload] = []
        for day in 1...days { downloads += m.advance(until: start + day * 86_400) }
        return (downloads, m.results(), m)
    }

    /// Every third hour file without keys (CWA's hours below the 140-key threshold).
    func packagesWithEmptyHours() throws -> [PublishedPackage] {
        try SyntheticPackages.make(flavor: .cwa, start: start, days: 2, casesPerDay: 48, keysPerCase: 2, seed: 5).map { p in
            guard p.kind == .hourly, SimClock.hourOfDay(p.covers.lowerBound) % 3 == 0 else { return p }
            return PublishedPackage(sequence: p.sequence, name: p.name, kind: p.kind, publishedAt: p.publishedAt, covers: p.covers,
                                    keys: [], bytes: 300)
        }
    }

    @Test func skippingEmptyPackagesFetchesOnlyFilesWithKeysAndShorterIndexes() throws {
        let packages = try packagesWithEmptyHours()
        var p = DistributionTests.quiet
        let listed = run(p, .cwa, packages, days: 2)
        p.skipsEmptyPackages = true
        let skipped = run(p, .cwa, packages, days: 2)
        // Same check times (no random draw depends on it); only the empty files are not fetched.
        let empty = Set(packages.filter(\.keys.isEmpty).map(\.sequence))
        #expect(!empty.isEmpty && listed.downloads.contains { empty.contains($0.package) })
        #expect(skipped.downloads == listed.downloads.filter { !empty.contains($0.package) })
        let emptyFetches = listed.results.summary.packageRequests - skipped.results.summary.packageRequests
        #expect(emptyFetches > 0 && skipped.results.summary.sessions == listed.results.summary.sessions)
        // Fewer bytes than the skipped files and their headers alone: the index files list fewer hours too.
        let saved = listed.results.summary.bytes - skipped.results.summary.bytes
        #expect(saved > emptyFetches * (p.httpOverheadBytes + 300))
        // The hour index of the first day lists exactly the hours with keys.
        let hours = (0..<24).filter { $0 % 3 != 0 }.map(String.init)
        let json = "[" + hours.joined(separator: ",") + "]"
        let day = SimClock.dayNumber(start), catalog = skipped.model.catalog
        #expect(catalog.hourIndexBytes(day: day, visible: catalog.count, nonEmpty: true) == json.utf8.count)
        #expect(catalog.hourIndexBytes(day: day, visible: catalog.count) == ("[" + (0..<24).map(String.init).joined(separator: ",") + "]").utf8.count)
    }

    @Test func configurationDownloadsCountOncePerSessionOnlyWhenModelled() throws {
        let packages = try SyntheticPackages.make(flavor: .immuni, start: start, days: 1, casesPerDay: 48, keysPerCase: 2, seed: 5)
        var p = DistributionTests.quiet
        p.clients = 40
        let off = run(p, .immuni, packages, days: 1)
        p.configBytes = 2_500
        let on = run(p, .immuni, packages, days: 1)
        let sessions = on.results.summary.sessions
        #expect(off.results.summary.configRequests == nil && on.results.summary.configRequests == sessions)
        #expect(on.downloads == off.downloads && sessions == off.results.summary.sessions)
        #expect(on.results.summary.requests == off.results.summary.requests + sessions)
        #expect(on.results.summary.bytes == off.results.summary.bytes + sessions * (2_500 + p.httpOverheadBytes))
        // The tables gain the column only when counted, and their requests include it.
        #expect(!off.results.hourly!.columns.contains("config_requests") && on.results.hourly!.columns.contains("config_requests"))
        let minutes = try #require(on.results.perMinute)
        #expect(minutes.columns == DistributionModel.minuteColumns(p) && minutes.columns.contains("config_requests"))
        #expect(!(try #require(off.results.perMinute)).columns.contains("config_requests"))
        #expect(on.results.hourly!.column("config_requests").reduce(0) { total, cell in if case .integer(let v) = cell { total + Int(v) } else { total } } == sessions)
        #expect(minutes.column("requests").reduce(0) { total, cell in if case .integer(let v) = cell { total + Int(v) } else { total } } == on.results.summary.requests)
        #expect(on.results.hourly!.column("requests").reduce(0) { total, cell in if case .integer(let v) = cell { total + Int(v) } else { total } } == on.results.summary.requests)
    }
}
