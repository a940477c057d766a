import Foundation
import Testing
@testable import Reporting
import Simulation

@Suite struct ReportingTests {
    func tempDir() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ensim-reporting-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func jsonKeepsKeyOrderAndFormatsNumbers() {
        let value = ReportValue.object([
            ("zeta", .integer(3)), ("alpha", .number(0.1)), ("whole", .number(2)),
            ("text", .text("a\"b\n")), ("list", .array([.boolean(true), .number(.nan)])), ("empty", .object([])),
        ])
        let text = String(decoding: JSONReport.encode(value), as: UTF8.self)
        #expect(text == """
        {
          "zeta": 3,
          "alpha": 0.1,
          "whole": 2.0,
          "text": "a\\"b\\n",
          "list": [
            true,
            null
          ],
          "empty": {}
        }

        """)
        #expect((try? JSONSerialization.jsonObject(with: JSONReport.encode(value))) != nil)
    }

    @Test func csvHasHeaderAndQuotesWhenNeeded() throws {
        var table = ResultTable(columns: ["day", "date", "note"])
        table.append([.integer(0), .text("2020-10-01"), .text("a,b")])
        table.append([.integer(1), .number(1.5), .text("")])
        let text = String(decoding: try CSVReport.encode(table), as: UTF8.self)
        #expect(text == "day,date,note\n0,2020-10-01,\"a,b\"\n1,1.5,\n")
    }

    @Test func runFolderAppearsOnlyWhenComplete() throws {
        let parent = tempDir()
        let final = parent.appendingPathComponent("run-1")
        let run = try RunFolder(finalURL: final)
        try run.write("summary.json", Data("{}".utf8))
        #expect(!FileManager.default.fileExists(atPath: final.path))
        #expect(FileManager.default.fileExists(atPath: run.stagingURL.appendingPathComponent("summary.json").path))
        try run.commit()
        #expect(FileManager.default.fileExists(atPath: final.appendingPathComponent("summary.json").path))
        #expect(!FileManager.default.fileExists(atPath: run.stagingURL.path))
        #expect(throws: ReportingError.self) { try RunFolder(finalURL: final) }
    }

    @Test func discardedRunLeavesNothing() throws {
        let parent = tempDir()
        let run = try RunFolder(finalURL: parent.appendingPathComponent("run-2"))
        try run.write("daily.csv", Data())
        run.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }
}
