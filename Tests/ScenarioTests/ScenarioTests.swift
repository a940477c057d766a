import Testing
@testable import Scenario

@Test func ScenarioBuilds() { #expect(Bool(true)) }
