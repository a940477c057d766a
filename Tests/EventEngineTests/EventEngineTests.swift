import Testing
@testable import EventEngine

@Test func EventEngineBuilds() { #expect(Bool(true)) }
