@testable import Distribution
import EventEngine
import GSL
@testable import HealthBackend
import Testing

/// The CDN phase's shortcuts give exactly what the plain forms give.
@Suite struct CDNFastPathTests {
    let start = CivilCalendar.time(year: 2020, month: 10, day: 1)

    /// Counts made through lent storage (`EventCounter`, summed per event) grow and fill the
    /// per-minute and per-second tables exactly as one `add` or `addRequests` per count does, also
    /// when an event lands far beyond the tables or after minutes are dropped.
    @Test func eventCountsMatchSingleAdds() {
        let rng = RandomStream(seed: 3, stream: "test.counts", generator: .taus2)
        var lent = LoadCounters(), single = LoadCounters()
        var minute = 0
        for advance in 0..<20 {
            // An advance's events, in the order a shard counts them (not in time order).
            let first = minute
            var events: [(minute: Int, second: Int, counts: [(LoadCounters.Metric, Int)], requests: Int)] = []
            for _ in 0..<50 {
                let m = first + [0, 1, 7, 700, 3_000][rng.uniformInt(5)] + rng.uniformInt(3)
                let counts = (0..<rng.uniformInt(6)).map { _ in
                    (LoadCounters.Metric.allCases[rng.uniformInt(LoadCounters.metricCount)], rng.uniformInt(5_000))
                }
                events.append((m, m * 60 + rng.uniformInt(60), counts, rng.uniformInt(9)))
            }
            let last = events.map(\.minute).max()!
            var loan = lent.lend(throughMinute: last)
            let counted = loan.count { counter in
                for e in events {
                    counter.begin(minute: e.minute)
                    for (metric, value) in e.counts { counter.count(metric, value) }
                    counter.addRequests(e.requests, second: e.second)
                    counter.end()
                }
            }
            lent.restore(loan, counted: counted)
            for e in events {
                for (metric, value) in e.counts { single.add(metric, value, minute: e.minute) }
                single.addRequests(e.requests, second: e.second)
            }
            #expect(lent.perMinute == single.perMinute && lent.requestsPerSecond == single.requestsPerSecond, "advance \(advance)")
            #expect(lent.endMinute == single.endMinute)
            minute = last + 1
            if advance % 3 == 2 {
                lent.drop(before: minute - 30)
                single.drop(before: minute - 30)
            }
        }
    }

    /// Clients see the same packages and make the same requests whether the model advances an
    /// hour, a day or four days at a time (each advance looks the catalog up afresh, and writes
    /// its downloads in place or, when they outgrow the room kept, copies them).
    @Test func advanceStepsDoNotChangeResults() throws {
        for flavor in [DistributionFlavor.cwa, .immuni] {
            for skip in [false, true] {
                let packages = try SyntheticPackages.make(flavor: flavor, start: start, days: 4, casesPerDay: 6, keysPerCase: 1, seed: 9)
                var p = DistributionParameters()
                p.clients = 300
                p.skipsEmptyPackages = skip
                p.cdnErrorRate = 0.05
                func run(step: Int64) -> (downloads: [PackageDownload], bytes: [[Int]], latency: [Int], copied: Int) {
                    let m = DistributionModel(parameters: p, flavor: flavor, seed: 4, start: start,
                                              contactPhoneIsIOS: (0..<200).map { $0 % 2 == 0 }, threads: 2)
                    m.foldsLoad = false
                    m.publish(packages)
                    var all: [PackageDownload] = []
                    var t = start
                    while t < start + 4 * 86_400 {
                        t += step
                        all += m.advance(until: t)
                    }
                    return (all, m.bytesPerClientDay(), m.latencyMinutes, m.copiedDownloadAdvances)
                }
                let hourly = run(step: 3_600), daily = run(step: 86_400), whole = run(step: 4 * 86_400)
                #expect(!hourly.downloads.isEmpty)
                // Days written in place (after the first, copied) give what one advance copied gives.
                #expect(daily.copied >= 1 && daily.copied < 4 && whole.copied == 1, "\(flavor), skip empty \(skip)")
                #expect(daily.downloads == whole.downloads && daily.bytes == whole.bytes, "\(flavor), skip empty \(skip)")
                #expect(hourly.downloads == whole.downloads && hourly.bytes == whole.bytes && hourly.latency == whole.latency,
                        "\(flavor), skip empty \(skip)")
            }
        }
    }
}
