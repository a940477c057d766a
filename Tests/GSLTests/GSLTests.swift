import Testing
@testable import GSL

@Test func GSLBuilds() { #expect(Bool(true)) }
