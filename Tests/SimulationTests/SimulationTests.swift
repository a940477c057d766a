import Testing
@testable import Simulation

@Test func SimulationBuilds() { #expect(Bool(true)) }
