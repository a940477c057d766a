@testable import ENSimBenchmarks
import Foundation
import Testing

@Suite struct BenchmarkReportTests {
    @Test func linesAreSortedKeyValuePairs() {
        let report = BenchmarkReport(["wall_seconds": 1.5, "benchmark": "population", "phones": 10])
        #expect(report.lines == ["benchmark: population", "phones: 10", "wall_seconds: 1.5"])
    }

    @Test func childRunsAreTimedAndFailuresReported() throws {
        #expect(try LongRunBenchmark.child("/bin/sh", ["-c", "sleep 0.2"]) >= 0.2)
        #expect(throws: BenchmarkError.self) { try LongRunBenchmark.child("/bin/sh", ["-c", "exit 3"]) }
        #expect(throws: BenchmarkError.self) { try LongRunBenchmark.child("/nonexistent/ensim", []) }
    }

    @Test func jsonHasSortedKeys() throws {
        let text = String(decoding: try BenchmarkReport(["b": 2, "a": [1, 2]]).json(), as: UTF8.self)
        #expect(text.firstRange(of: "\"a\"")!.lowerBound < text.firstRange(of: "\"b\"")!.lowerBound)
    }

    @Test func speedTableRateIsTheAESRowAfterTheUnitsLine() {
        let output = """
            version: 3.0.11
            The 'numbers' are in 1000s of bytes per second processed.
            type             16 bytes
            AES-128-ECB     612345.67k
            """
        #expect(OpenSSLSpeed.parseSpeedTable(output) == 612_345.67)
        #expect(OpenSSLSpeed.parseSpeedTable("AES-128-ECB 1.0k") == nil)
        #expect(OpenSSLSpeed.parseSpeedTable(output.replacingOccurrences(of: "612345.67k", with: "n/a")) == nil)
    }
}
