import EventEngine
import Foundation
import HealthBackend
@testable import Reporting
import Simulation
import SimulationCore
import Testing
import World
import TestSupport

/// Tables streamed into the run folder while the run goes are the bytes the in-memory tables
/// would have written, and a failed write is reported, not lost.
@Suite struct CSVStreamsTests {
    static func config() -> SimulationConfig {
        SimulationConfig(name: "streams", seed: 5, start: CivilCalendar.time(year: 2020, month: 10, day: 1), days: 2,
                         population: PopulationParameters(size: 300, appAdoption: 0.5), threads: 2)
    }

    @Test func streamedTablesEqualTheInMemoryOnes() throws {
        let inMemory = try Simulation(config: Self.config()).run()
        let minutes = try #require(inMemory.tables.first { $0.name == "distribution_minutes.csv" }?.table)
        #expect(minutes.count == 2 * 1_440)

        let parent = TestFolder.url("ensim-streams")
        let folder = try RunFolder(finalURL: parent.appendingPathComponent("run"))
        defer { folder.discard(); try? FileManager.default.removeItem(at: parent) }
        let streams = CSVStreams(folder: folder)
        let streamed = try Simulation(config: Self.config(), streams: streams).run()
        try streams.finish()
        #expect(streams.names == ["distribution_minutes.csv", "distribution_hourly.csv", "daily.csv"])
        let written = try Data(contentsOf: folder.stagingURL.appendingPathComponent("distribution_minutes.csv"))
        #expect(written == CSVReport.encode(minutes))
        let hours = try #require(inMemory.tables.first { $0.name == "distribution_hourly.csv" }?.table)
        #expect(hours.count == 2 * 24)
        let hourly = try Data(contentsOf: folder.stagingURL.appendingPathComponent("distribution_hourly.csv"))
        #expect(hourly == CSVReport.encode(hours))
        let daily = try Data(contentsOf: folder.stagingURL.appendingPathComponent("daily.csv"))
        #expect(daily == CSVReport.encode(inMemory.daily))
        // Everything else is unchanged, and the streamed tables are not held a second time.
        #expect(streamed.dailyTable == nil)
        #expect(streamed.summary == inMemory.summary && streamed.hourly == inMemory.hourly)
        #expect(streamed.tables == inMemory.tables.filter { !["distribution_minutes.csv", "distribution_hourly.csv"].contains($0.name) })
    }

    @Test func aWriteErrorIsThrownByFinish() throws {
        let parent = TestFolder.url("ensim-streams")
        let folder = try RunFolder(finalURL: parent.appendingPathComponent("run"))
        defer { folder.discard(); try? FileManager.default.removeItem(at: parent) }
        let streams = CSVStreams(folder: folder)
        let table = streams.open("missing/minutes.csv", columns: ["a"])   // its folder does not exist
        table.append([.integer(1)])
        #expect(throws: ReportingError.self) { try streams.finish() }
        do { try streams.finish() } catch { #expect("\(error)".contains("missing/minutes.csv")) }
    }

    @Test func writtenTablesEqualTheEncodedOnesAcrossPieces() throws {
        // Over 1 MiB, so the file is written in several pieces; text that needs quoting too.
        let table = ResultTable.computed(columns: ["i", "name", "share"], count: 60_000) {
            [.integer(Int64($0) - 7), .text($0 % 3 == 0 ? "a,\"b\" \($0)" : "row \($0)"), .number(Double($0) / 7)]
        }
        let parent = TestFolder.url("ensim-streams")
        let folder = try RunFolder(finalURL: parent.appendingPathComponent("run"))
        defer { folder.discard(); try? FileManager.default.removeItem(at: parent) }
        try folder.writeCSV("sub/table.csv", table)
        let written = try Data(contentsOf: folder.stagingURL.appendingPathComponent("sub/table.csv"))
        #expect(written.count > 1 << 20)
        #expect(written == CSVReport.encode(table))
    }

    @Test func computedTablesReadLikeStoredOnes() {
        var stored = ResultTable(columns: ["i", "square"])
        for i in 0..<5 { stored.append([.integer(Int64(i)), .integer(Int64(i * i))]) }
        let computed = ResultTable.computed(columns: ["i", "square"], count: 5) { [.integer(Int64($0)), .integer(Int64($0 * $0))] }
        #expect(computed == stored && computed.rows == stored.rows && computed.column("square") == stored.column("square"))
        #expect(CSVReport.encode(computed) == CSVReport.encode(stored))
        let other = ResultTable.computed(columns: ["i", "square"], count: 5) { [.integer(Int64($0)), .integer(Int64($0))] }
        #expect(other != stored)
    }
}
