import Foundation
import Testing

@Suite struct RadioCommandTests {
    @Test func calibrationTableGrowsWithDistance() throws {
        let r = try EnsimProcess.run(["radio", "calibrate", "--layer", "household", "--samples", "2000", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let rows = object["rows"] as! [[String: Double]]
        #expect(rows.map { $0["metres"]! } == [0.5, 1, 1.5, 2, 3, 4, 5, 7, 10])
        let medians = rows.map { $0["p50_db"]! }
        #expect(medians.first! < medians.last!)
        #expect(rows.allSatisfy { $0["p10_db"]! <= $0["p50_db"]! && $0["p50_db"]! <= $0["p90_db"]! })
    }

    @Test func unknownLayerIsRejected() throws {
        let r = try EnsimProcess.run(["radio", "calibrate", "--layer", "bus"])
        #expect(r.status != 0)
        #expect(["household", "workplace", "school", "community", "transport"].allSatisfy { r.stderr.contains("'\($0)'") })
    }
}
