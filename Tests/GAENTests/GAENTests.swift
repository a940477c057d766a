import Testing
@testable import GAEN

@Test func GAENBuilds() { #expect(Bool(true)) }
