import Testing
@testable import Reporting

@Test func ReportingBuilds() { #expect(Bool(true)) }
