import Foundation
import Testing

/// A long run's outputs equal a short run's for the days they share (same scenario and seed):
/// nothing a day produces depends on how many days follow.
@Suite struct LongRunPrefixTests {
    static let scenario = """
        name: prefix
        seed: 9
        days: 2
        population:
          size: 3000
        health:
          cases_per_day: 6
        """

    func lines(_ folder: URL, _ name: String) throws -> [Substring] {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).split(separator: "\n")
    }

    @Test func sharedDaysAreIdentical() throws {
        let dir = EnsimProcess.temporaryDirectory()
        let file = dir.appendingPathComponent("prefix.yaml")
        try Data(Self.scenario.utf8).write(to: file)
        let short = dir.appendingPathComponent("short"), long = dir.appendingPathComponent("long")
        for (out, days) in [(short, "2"), (long, "4")] {
            let r = try EnsimProcess.run(["run", file.path, "--days", days, "--quiet", "--out", out.path])
            #expect(r.status == 0, "\(r.stderr)")
        }
        // Day rows (header + 2 days), hour rows (header + 48 hours), and the packages of those days.
        for (name, rows) in [("daily.csv", 3), ("hourly.csv", 49), ("distribution_hourly.csv", 49)] {
            let a = try lines(short, name), b = try lines(long, name)
            #expect(a.count == rows && Array(b.prefix(rows)) == a, "\(name): the shared days differ")
        }
        let packages = try lines(short, "packages.csv"), longPackages = try lines(long, "packages.csv")
        #expect(packages.count > 1 && Array(longPackages.prefix(packages.count)) == packages)
    }

    /// Every backend count is made in the hour it happens (a CWA test's registration and polls
    /// before its result, a package when it is published), so each daily.csv row is the sum of
    /// its day's hourly.csv rows.
    @Test(arguments: ["cwa", "immuni"]) func dailyRowsAreTheSumOfTheirHours(flavor: String) throws {
        let dir = EnsimProcess.temporaryDirectory()
        let file = dir.appendingPathComponent("sums.yaml")
        try Data((Self.scenario + "\nbackend:\n  flavor: \(flavor)\n").utf8).write(to: file)
        let out = dir.appendingPathComponent("run")
        let r = try EnsimProcess.run(["run", file.path, "--days", "3", "--quiet", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        func table(_ name: String) throws -> (header: [Substring], rows: [[Substring]]) {
            let all = try lines(out, name).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            return (all[0], Array(all.dropFirst()))
        }
        let daily = try table("daily.csv"), hourly = try table("hourly.csv")
        let columns = ["requests", "uploads_real", "uploads_dummy", "uploads_national", "uploads_rejected", "keys_received",
                       "keys_rejected", "keys_published", "packages", "package_bytes", "upload_bytes"]
        for column in columns {
            let d = try #require(daily.header.firstIndex(of: Substring(column))), h = try #require(hourly.header.firstIndex(of: Substring(column)))
            for (day, row) in daily.rows.enumerated() {
                let sum = hourly.rows[(day * 24)..<(day * 24 + 24)].reduce(0) { $0 + Int($1[h])! }
                #expect(Int(row[d])! == sum, "\(flavor) day \(day) \(column)")
            }
        }
        #expect(daily.rows.reduce(0) { $0 + Int($1[daily.header.firstIndex(of: "packages")!])! } > 0)
    }
}
