import Foundation
import Testing

@Suite struct RegressCommandTests {
    func runFolder(notified: Int, fp: Int, contacts: Int, fn: Int) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ensim-regress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let json = """
        {"detection": {"preset": "cwa-v2", "notified": \(notified), "false_positives": \(fp), "close_contacts_with_app": \(contacts), "false_negatives": \(fn)}}
        """
        try Data(json.utf8).write(to: dir.appendingPathComponent("summary.json"))
        return dir
    }

    @Test func runFolderAgainstBaselineExitCodes() throws {
        let good = try runFolder(notified: 1000, fp: 100, contacts: 800, fn: 200)
        let baseline = good.appendingPathComponent("baseline.json").path
        #expect(try EnsimProcess.run(["regress", good.path, "--baseline", baseline, "--update"]).status == 0)
        let same = try EnsimProcess.run(["regress", good.path, "--baseline", baseline])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("false_positive_rate") && same.stdout.contains("ok"))
        let worse = try runFolder(notified: 1000, fp: 160, contacts: 800, fn: 200)
        let r = try EnsimProcess.run(["regress", worse.path, "--baseline", baseline])
        #expect(r.status == 1)
        #expect(r.stdout.contains("regression"))
        let missing = try EnsimProcess.run(["regress", good.path, "--baseline", good.appendingPathComponent("none.json").path])
        #expect(missing.status == 2 && missing.stderr.contains("create it with --update"))
    }
}
