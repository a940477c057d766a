import Testing
@testable import ensim

@Test func ensimBuilds() { #expect(Bool(true)) }
