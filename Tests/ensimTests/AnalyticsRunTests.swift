import Foundation
import Testing

/// `ensim run` with `analytics.enabled: true`: the summary's analytics section, monthly.csv,
/// analytics_hourly.csv, analytics_provinces.csv and sweep.csv, identical with 1 or 2 threads.
@Suite struct AnalyticsRunTests {
    static let scenario = """
    name: analytics-small
    start: 2020-06-20
    days: 20
    population:
      size: 800
    analytics:
      enabled: true
      sweep:
        points: 2
      attacks:
        ios_race_devices: 2
    outputs:
      hourly: false
    """

    @Test func runWritesAnalyticsResults() throws {
        let dir = EnsimProcess.temporaryDirectory()
        let file = dir.appendingPathComponent("analytics-small.yaml")
        try Self.scenario.write(to: file, atomically: true, encoding: .utf8)
        var folders: [URL] = []
        for threads in ["1", "2"] {
            let out = dir.appendingPathComponent("run\(threads)")
            let r = try EnsimProcess.run(["run", file.path, "--quiet", "--threads", threads, "--out", out.path])
            #expect(r.status == 0, "\(r.stderr)")
            folders.append(out)
        }
        for name in ["summary.json", "monthly.csv", "analytics_hourly.csv", "analytics_provinces.csv", "sweep.csv"] {
            let a = try Data(contentsOf: folders[0].appendingPathComponent(name)), b = try Data(contentsOf: folders[1].appendingPathComponent(name))
            #expect(a == b, "\(name) differs between 1 and 2 threads")
        }
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: folders[0].appendingPathComponent("summary.json"))) as! [String: Any]
        let analytics = summary["analytics"] as! [String: Any]
        #expect((analytics["months"] as! [Any]).count == 2)   // June and July
        #expect((analytics["attacks"] as! [String: Any])["ios_race"] != nil)
        let monthly = String(decoding: try Data(contentsOf: folders[0].appendingPathComponent("monthly.csv")), as: UTF8.self).split(separator: "\n")
        #expect(monthly.count == 1 + 2 * 22)   // header + (21 regions + national) per month
        #expect(monthly[0].hasPrefix("month,days_in_run,region,working_apps_truth"))
        let sweep = String(decoding: try Data(contentsOf: folders[0].appendingPathComponent("sweep.csv")), as: UTF8.self).split(separator: "\n")
        #expect(sweep.count == 3)
        let provinces = String(decoding: try Data(contentsOf: folders[0].appendingPathComponent("analytics_provinces.csv")), as: UTF8.self)
            .split(separator: "\n")
        #expect(provinces.count == 1 + 2 * 107)   // header + 107 provinces per month
        #expect(provinces[0].contains("notified_ci_upper,bluetooth_off_truth,bluetooth_off_estimate"))
        #expect((analytics["provinces"] as! [String: Any])["provinces"] as? Int == 107)
    }
}
