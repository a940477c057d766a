import Foundation
@testable import P6Phones
@testable import Simulation
import Testing

@Suite struct P6CollisionStudyTests {
    /// 3-bit codes make single, 2-in-5 and 3-in-5 collisions common enough to count.
    static func small(threads: Int, disclosures: Int = 40, receivers: Int = 40) -> P6CollisionParameters {
        var p = P6CollisionParameters()
        p.disclosures = disclosures
        p.receivers = receivers
        p.codeBits = 3
        p.seed = 11
        p.threads = threads
        return p
    }

    @Test func defaultsAreTheSeedsSetup() {
        let p = P6CollisionParameters()
        #expect(p.disclosures == 75_000 && p.receivers == 150_000)
        #expect(p.codeBits == 32 && p.window == 5 && p.threshold == 3 && p.slices == 1440)
        #expect(p.codesPerSliceShares.count == 8 && p.codesPerSliceShares[0] == 0.5 && p.codesPerSliceShares[7] == 0.05)
        #expect(abs(p.codesPerSliceShares.reduce(0, +) - 1) < 1e-12)
        #expect(abs(p.meanCodesPerSlice - 1.36) < 1e-12)
        // The seed saw ~5,000 single-slice code matches at its scale; ENSim's reading expects ~5,130.
        let e = P6CollisionStudy.expectedWindows(pairs: 150_000 * 75_000, slices: 1440, codesPerSliceShares: p.codesPerSliceShares,
                                                 codeMatch: pow(2, -32), window: 5, kMax: 3)
        #expect(e[0] > 4_500 && e[0] < 5_800)
        #expect(e[1] < 1e-4 && e[2] < 1e-12)
    }

    /// Observed counts agree with the analytic expectation (Poisson-scale tolerance, widened
    /// threefold in variance for the overlap of neighbouring windows).
    @Test func countsAgreeWithTheAnalyticExpectation() {
        let r = P6CollisionStudy.run(Self.small(threads: 2))
        let slots = Double(r.parameters.receivers * r.parameters.slices)
        #expect(abs(Double(r.receivedCodes) - slots * 1.36) < 5 * (slots * 4).squareRoot())
        for (observed, expected) in [(r.codeOnly.windows, r.expectedCodeOnly), (r.codeAndUUID.windows, r.expectedCodeAndUUID)] {
            for k in 0..<3 {
                #expect(expected[k] > 50, "the test needs enough events at k = \(k + 1)")
                let tolerance = 5 * (3 * expected[k]).squareRoot()
                #expect(abs(Double(observed[k]) - expected[k]) < tolerance, "k = \(k + 1): \(observed[k]) vs \(expected[k])")
            }
        }
        #expect(r.codeOnly.windows[0] > 4 * r.codeAndUUID.windows[0])
        #expect(r.codeAndUUID.fullMatches > 0 && r.codeAndUUID.fullMatches <= r.codeAndUUID.windows[2])
    }

    @Test func resultsDoNotDependOnThreads() {
        let one = P6CollisionStudy.run(Self.small(threads: 1, disclosures: 15, receivers: 25))
        let three = P6CollisionStudy.run(Self.small(threads: 3, disclosures: 15, receivers: 25))
        #expect(one.receivedCodes == three.receivedCodes && one.codeOnly == three.codeOnly && one.codeAndUUID == three.codeAndUUID)
        #expect(one.codeAndUUID.windows[0] > 0)
    }

    @Test func anchoredWindowsAndClustersAreCounted() {
        typealias M = P6CollisionStudy.Match
        let ms = [M(receiver: 0, disclosure: 1, slice: 10, uuidAgrees: true), M(receiver: 0, disclosure: 1, slice: 12, uuidAgrees: true),
                  M(receiver: 0, disclosure: 1, slice: 12, uuidAgrees: false), M(receiver: 0, disclosure: 1, slice: 14, uuidAgrees: false),
                  M(receiver: 2, disclosure: 1, slice: 14, uuidAgrees: true)]
        let code = P6CollisionStudy.count(ms, uuidRequired: false, kMax: 3, window: 5, threshold: 3)
        // Pair (0,1): slices 10, 12, 14 → anchors 10 (3 in window), 12 (2), 14 (1); pair (2,1): 14.
        #expect(code.windows == [4, 2, 1])
        #expect(code.fullMatches == 1 && code.receiversWithFullMatch == 1)
        let uuid = P6CollisionStudy.count(ms, uuidRequired: true, kMax: 3, window: 5, threshold: 3)
        #expect(uuid.windows == [3, 1, 0] && uuid.fullMatches == 0)
    }
}
