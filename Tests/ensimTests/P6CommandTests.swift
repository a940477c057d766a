import Foundation
import Testing

@Suite struct P6CommandTests {
    @Test func collisionStudyReportsObservedBesideExpected() throws {
        let r = try EnsimProcess.run(["p6", "collisions", "--sizes", "12x10", "--code-bits", "3", "--threads", "2", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let run = (object["runs"] as! [[String: Any]])[0]
        #expect(run["receiver_epochs"] as? Int == 12 && run["disclosed_epochs"] as? Int == 10)
        let single = (run["code_and_uuid"] as! [String: Any])["single_slice_matches"] as! [String: Double]
        #expect(single["observed"]! > 0 && abs(single["observed"]! - single["expected"]!) < 5 * (3 * single["expected"]!).squareRoot())
        #expect((run["code_only"] as! [String: Any])["windows_3_in_5"] != nil)
    }

    @Test func badSizesAreRejected() throws {
        let r = try EnsimProcess.run(["p6", "collisions", "--sizes", "12by10"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("'--sizes <sizes>': '12by10' is not RECEIVERSxDISCLOSURES"))
    }
}
