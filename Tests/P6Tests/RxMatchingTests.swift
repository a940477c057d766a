@testable import P6
import Testing

@Suite("P6 Rx co-location matching")
struct RxMatchingTests {
    /// Both phones hear the same transmitter (an epoch) in slices 200, 201 and 203.
    @Test func coLocatedReceiversMatchAndStrangersDoNot() {
        let tx = makeEpoch(seed: 9).allCodes()
        func heard(_ s: Int, offset: Int64) -> P6RxRecord { P6RxRecord(time: tx[s].start + offset, uuidIndex: tx[s].uuidIndex, code: tx[s].code) }
        let disclosing = [200, 201, 203].map { heard($0, offset: 5) }
        let nearby = [200, 201, 203].map { heard($0, offset: 50) } + [heard(203, offset: 55)]
        let r = P6Matcher.matchRx(disclosed: disclosing, local: nearby)
        #expect(r.matchedSlices.count == 3)
        #expect(r.fullMatches == [(tx[200].start / 60)...(tx[203].start / 60)])

        // Same codes an hour later, or on another UUID: a stranger elsewhere.
        let elsewhere = [200, 201, 203].map { P6RxRecord(time: tx[$0].start + 3600, uuidIndex: tx[$0].uuidIndex, code: tx[$0].code) }
        let otherUUID = [200, 201, 203].map { P6RxRecord(time: tx[$0].start, uuidIndex: (tx[$0].uuidIndex + 1) % 8, code: tx[$0].code) }
        #expect(P6Matcher.matchRx(disclosed: disclosing, local: elsewhere).matchedSlices.isEmpty)
        #expect(P6Matcher.matchRx(disclosed: disclosing, local: otherUUID).matchedSlices.isEmpty)

        // Two slices are only coincidences; receptions after the disclosure time are ignored.
        let two = P6Matcher.matchRx(disclosed: disclosing, local: Array(nearby.prefix(2)))
        #expect(two.matchedSlices.count == 2 && two.fullMatches.isEmpty)
        let cut = P6Matcher.matchRx(disclosed: disclosing, local: nearby, notAfter: tx[203].start)
        #expect(cut.matchedSlices.count == 2 && cut.fullMatches.isEmpty)
    }
}
