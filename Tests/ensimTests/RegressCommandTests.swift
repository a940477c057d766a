import Foundation
import Testing
import TestSupport

@Suite struct RegressCommandTests {
    func runFolder(notified: Int, fp: Int, contacts: Int, fn: Int) throws -> URL {
        let dir = TestFolder.url("ensim-regress")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let json = """
        {"detection": {"preset": "cwa-v2", "notified": \(notified), "false_positives": \(fp), "close_contacts_with_app": \(contacts), "false_negatives": \(fn)}}
        """
        try Data(json.utf8).write(to: dir.appendingPathComponent("summary.json"))
        try Data("{}".utf8).write(to: dir.appendingPathComponent("manifest.json"))
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

    /// Every malformed baseline is one line naming the file and field, exit 2; never a crash.
    @Test func malformedBaselinesAreRefusedInOneLine() throws {
        let run = try runFolder(notified: 1000, fp: 100, contacts: 800, fn: 200)
        let cases: [(String, String)] = [
            (#""notified": -1"#, "notified: expected an integer from 0 to 1000000000000 (got -1)"),
            (#""notified": 9223372036854775807"#, "notified: expected an integer from 0 to 1000000000000 (got 9223372036854775807)"),
            (#""notified": 50"#, "false_positives: 100 exceeds notified (50)"),
            (#""notified": 1.5"#, "notified: expected an integer from 0 to 1000000000000 (got 1.5)"),
            (#""preset": "banana""#, "preset: expected one of immuni, cwa-v1, cwa-v2"),
            (#""source": 3"#, "source: expected a text"),
            (#""extra": 1"#, "extra: unknown field"),
        ]
        func baseline(_ replace: String) -> String {
            var fields = [#""source": "x""#, #""preset": "cwa-v2""#, #""notified": 1000"#, #""false_positives": 100"#,
                          #""close_contacts_with_app": 800"#, #""false_negatives": 200"#]
            let key = replace.split(separator: ":")[0]
            if let i = fields.firstIndex(where: { $0.hasPrefix(key + ":") }) { fields[i] = replace } else { fields.append(replace) }
            return "{" + fields.joined(separator: ", ") + "}"
        }
        for (replace, expected) in cases {
            let file = run.appendingPathComponent("b-\(UUID().uuidString).json")
            try Data(baseline(replace).utf8).write(to: file)
            let r = try EnsimProcess.run(["regress", run.path, "--baseline", file.path])
            #expect(r.status == 2, "\(replace): \(r.stderr)")
            #expect(r.stderr == "error: \(file.path): \(expected)" + (r.stderr.hasSuffix("\n") ? "\n" : "")
                    || r.stderr.hasPrefix("error: \(file.path): \(expected)"), "\(replace): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
        }
        let zero = run.appendingPathComponent("zero.json")
        try Data(#"{"source": "x", "preset": "cwa-v2", "notified": 0, "false_positives": 0, "close_contacts_with_app": 0, "false_negatives": 0}"#.utf8).write(to: zero)
        let z = try EnsimProcess.run(["regress", run.path, "--baseline", zero.path])
        #expect(z.status == 2 && z.stderr.contains("measures nothing"), "an all-zero baseline would pass any run: \(z.stderr)")
        let noSource = run.appendingPathComponent("nosource.json")
        try Data(#"{"preset": "cwa-v2", "notified": 1, "false_positives": 0, "close_contacts_with_app": 1, "false_negatives": 0}"#.utf8).write(to: noSource)
        #expect(try EnsimProcess.run(["regress", run.path, "--baseline", noSource.path]).stderr.contains("source: missing"))
    }

    /// A staging folder left by a killed run, or a folder without a manifest, is not a result.
    @Test func unfinishedFoldersAreNotResults() throws {
        let run = try runFolder(notified: 1000, fp: 100, contacts: 800, fn: 200)
        let baseline = run.appendingPathComponent("baseline.json").path
        #expect(try EnsimProcess.run(["regress", run.path, "--baseline", baseline, "--update"]).status == 0)
        let partial = run.deletingLastPathComponent().appendingPathComponent(".\(run.lastPathComponent).partial-12345")
        try FileManager.default.copyItem(at: run, to: partial)
        let r = try EnsimProcess.run(["regress", partial.path, "--baseline", baseline])
        #expect(r.status == 2 && r.stderr.contains("staging folder of an unfinished"), "\(r.stderr)")
        try FileManager.default.removeItem(at: run.appendingPathComponent("manifest.json"))
        let m = try EnsimProcess.run(["regress", run.path, "--baseline", baseline])
        #expect(m.status == 2 && m.stderr.contains("is not a finished run folder (no manifest.json)"), "\(m.stderr)")
    }
}
