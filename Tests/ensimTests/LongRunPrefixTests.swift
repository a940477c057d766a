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
        for (name, rows) in [("daily.csv", 3), ("distribution_hourly.csv", 49)] {
            let a = try lines(short, name), b = try lines(long, name)
            #expect(a.count == rows && Array(b.prefix(rows)) == a, "\(name): the shared days differ")
        }
        let packages = try lines(short, "packages.csv"), longPackages = try lines(long, "packages.csv")
        #expect(packages.count > 1 && Array(longPackages.prefix(packages.count)) == packages)
    }
}
