import Foundation
import HealthBackend
@testable import Reporting
import Scenario
import Simulation
import SimulationCore
import Testing
import TestSupport

@Suite struct ReportingTests {
    func tempDir() -> URL {
        let url = TestFolder.url("ensim-reporting")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func jsonKeepsKeyOrderAndFormatsNumbers() {
        let value = ValueTree.section([
            ("zeta", .integer(3)), ("alpha", .number(0.1)), ("whole", .number(2)),
            ("text", .text("a\"b\n")), ("list", .array([.boolean(true), .number(.nan)])), ("empty", .section([])),
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

    struct Inner: Encodable {
        var count: Int
        var share: Double
        var note: String?
    }

    struct Outer: Encodable {
        var name: String
        var whole: Double
        var inner: Inner
        var list: [Inner]
        var flags: [Bool]
        var missing: Int?

        enum CodingKeys: String, CodingKey { case name, whole = "whole_number", inner, list, flags, missing }
    }

    @Test func treeEncoderKeepsDeclarationOrderIntegersApartAndOmitsNil() throws {
        let value = Outer(name: "run", whole: 2, inner: Inner(count: 3, share: 0.25, note: "a"),
                          list: [Inner(count: 1, share: 1, note: nil)], flags: [], missing: nil)
        let text = String(decoding: try JSONReport.encode(value), as: UTF8.self)
        #expect(text == """
        {
          "name": "run",
          "whole_number": 2.0,
          "inner": {
            "count": 3,
            "share": 0.25,
            "note": "a"
          },
          "list": [
            {
              "count": 1,
              "share": 1.0
            }
          ],
          "flags": []
        }

        """)
        #expect(try OrderedTreeEncoder().encode(Inner(count: 4, share: 4, note: nil))
                == .section([("count", .integer(4)), ("share", .number(4))]))
    }

    @Test func typedSummaryValuesEncodeAsTheSummaryShowsThem() throws {
        let encoder = OrderedTreeEncoder()
        #expect(try encoder.encode(ProportionSummary(0, of: 0)) == .section([("estimate", .text("n/a")), ("trials", .integer(0))]))
        let half = try encoder.encode(ProportionSummary(1, of: 2, scale: 1000))
        guard case .section(let entries) = half else { Issue.record("not an object"); return }
        #expect(entries.map(\.0) == ["estimate", "ci_lower", "ci_upper", "confidence", "successes", "trials"])
        #expect(entries[0].1 == .number(500) && entries[4].1 == .integer(1) && entries[5].1 == .integer(2))
        #expect(try encoder.encode(Quantile(sorted: [], 0.5)) == .text("n/a"))
        #expect(try encoder.encode(Quantile(sorted: [1, 3], 0.5)) == .number(2))
        #expect(try encoder.encode(NamedValues([("b", 2), ("a", 1)])) == .section([("b", .integer(2)), ("a", .integer(1))]))
    }

    @Test func csvHasHeaderAndQuotesWhenNeeded() throws {
        var table = ResultTable(columns: ["day", "date", "note"])
        table.append([.integer(0), .text("2020-10-01"), .text("a,b")])
        table.append([.integer(1), .number(1.5), .text("")])
        let text = String(decoding: CSVReport.encode(table), as: UTF8.self)
        #expect(text == "day,date,note\n0,2020-10-01,\"a,b\"\n1,1.5,\n")
        var odd = ResultTable(columns: ["a\"b", "c"])
        odd.append([.text("say \"hi\""), .text("two\r\nlines")])
        odd.append([.boolean(true), .number(.nan)])
        #expect(String(decoding: CSVReport.encode(odd), as: UTF8.self) == "\"a\"\"b\",c\n\"say \"\"hi\"\"\",\"two\r\nlines\"\ntrue,\n")
    }

    @Test func integersAreWrittenAsStringWouldWriteThem() {
        for v: Int64 in [0, 1, 7, 9, -1, -7, 10, 99, 100, -100, 1_234_567_890, .max, .min, .min + 1] {
            var out: [UInt8] = []
            CSVReport.appendInteger(v, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(v))
        }
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
        #expect(throws: RunFolder.ClaimError.self) { try RunFolder(finalURL: final) }
    }

    @Test func discardedRunLeavesNothing() throws {
        let parent = tempDir()
        let run = try RunFolder(finalURL: parent.appendingPathComponent("run-2"))
        try run.write("daily.csv", Data())
        run.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }

    /// A folder is claimed when the run starts: a second claim fails at once, and a finished or
    /// discarded run releases it.
    @Test func aClaimedFolderRefusesASecondRun() throws {
        let final = tempDir().appendingPathComponent("run-3")
        let first = try RunFolder(finalURL: final)
        #expect {
            _ = try RunFolder(finalURL: final)
        } throws: { error in
            guard case RunFolder.ClaimError.busy = error else { return false }
            return "\(error)".contains("another ensim run is writing this folder")
        }
        first.discard()
        let again = try RunFolder(finalURL: final)
        try again.commit()
        #expect {
            _ = try RunFolder(finalURL: final)
        } throws: { error in
            guard case RunFolder.ClaimError.exists = error else { return false }
            return true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: final.deletingLastPathComponent().path) == ["run-3"])
    }

    /// Staging folders of dead runs (nobody holds their lock) go at the next claim; a live run's stays.
    @Test func staleStagingFoldersOfDeadRunsAreRemoved() throws {
        let parent = tempDir()
        let fm = FileManager.default
        let live = try RunFolder(finalURL: parent.appendingPathComponent("live"))
        let dead = parent.appendingPathComponent(".old.partial-999999")
        try fm.createDirectory(at: dead, withIntermediateDirectories: false)
        let deadWithLock = parent.appendingPathComponent(".older.partial-999998")
        try fm.createDirectory(at: deadWithLock, withIntermediateDirectories: false)
        _ = fm.createFile(atPath: parent.appendingPathComponent(".older.lock").path, contents: nil)
        let next = try RunFolder(finalURL: parent.appendingPathComponent("next"))
        #expect(Set(next.removedStale.map { URL(fileURLWithPath: $0).lastPathComponent }) == [dead.lastPathComponent, deadWithLock.lastPathComponent])
        #expect(fm.fileExists(atPath: live.stagingURL.path), "a live run's staging folder must stay")
        #expect(!fm.fileExists(atPath: dead.path) && !fm.fileExists(atPath: deadWithLock.path))
        live.discard()
        next.discard()
        #expect(try fm.contentsOfDirectory(atPath: parent.path).isEmpty)
    }
}
