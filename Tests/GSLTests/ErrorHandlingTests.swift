import Foundation
import Testing

/// GSL aborts the process on an error unless its handler is off. Inside this test process some
/// other test has usually made a `RandomStream` already, so the hard interval is computed again
/// in a child process of this same test binary that runs only `clopperPearsonKnownValues`:
/// before any draw, where the handler used to be still on (CI's crash of stop 34).
@Suite struct ErrorHandlingTests {
    @Test func anIntervalComputedBeforeAnyDrawDoesNotAbort() throws {
        let binary = try #require(CommandLine.arguments.first.map { URL(fileURLWithPath: $0) })
        try #require(binary.lastPathComponent.hasSuffix(".xctest"), "run by `swift test`: \(binary.path)")
        let child = Process()
        child.executableURL = binary
        child.arguments = ["--testing-library", "swift-testing", "--filter", "StatisticsTests/clopperPearsonKnownValues"]
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(child.terminationReason == .exit && child.terminationStatus == 0, "\(text.suffix(600))")
        #expect(text.contains("clopperPearsonKnownValues() passed"), "\(text.suffix(600))")
    }
}
