@testable import P6
import Testing

/// A disclosure ends the current epoch at once and the phone goes on with a fresh epoch.
@Suite("P6 epoch after a disclosure")
struct DisclosureEpochTests {
    let midnight: Int64 = 1_700_006_400  // a UTC midnight

    @Test func newEpochStartsOnTheDaysSliceGridAndEndsAtMidnight() throws {
        var g = TestBytes(seed: 5)
        let t = midnight + 36_030  // 10:00:30
        let e = try #require(try P6Epoch.afterDisclosure(at: t, iec: g.bytes(32), epk: g.bytes(32)))
        #expect(e.start == midnight + 36_060 && e.end == midnight + 86_400)
        let onBoundary = try #require(try P6Epoch.afterDisclosure(at: midnight + 600, sliceDuration: 30, iec: g.bytes(32), epk: g.bytes(32)))
        #expect(onBoundary.start == midnight + 600 && onBoundary.sliceDuration == 30)
        // Nothing left of the day: the next day's epoch takes over.
        #expect(try P6Epoch.afterDisclosure(at: midnight + 86_399, iec: g.bytes(32), epk: g.bytes(32)) == nil)
    }

    /// What a receiver heard from the phone all day matches the disclosed (cut) epoch only
    /// before the disclosure: the codes after it come from the new epoch.
    @Test func codesSentAfterTheDisclosureDoNotMatchTheDisclosedTrace() throws {
        let day = makeEpoch(seed: 11, start: midnight)
        let t = midnight + 12 * 3_600 + 17
        let disclosed = try day.ended(at: t)
        var g = TestBytes(seed: 12)
        let next = try #require(try P6Epoch.afterDisclosure(at: t, iec: g.bytes(32), epk: g.bytes(32)))
        // The phone transmits 11:30–12:30: the day epoch until t, the new one from the next slice.
        let heard = (disclosed.codes(from: midnight + 41_400, to: t) + next.codes(from: next.start, to: midnight + 45_000))
            .map { P6RxRecord(time: $0.start + 5, uuidIndex: $0.uuidIndex, code: $0.code) }
        let before = heard.filter { $0.time < t }, after = heard.filter { $0.time >= t }
        #expect(before.count == 31 && after.count == 29)
        let all = P6Matcher.match(epoch: disclosed, rxTrace: heard)
        #expect(all.matchedSliceCount == before.count)
        #expect(all.matches.count == 1 && all.matches[0].end <= t)
        #expect(P6Matcher.match(epoch: disclosed, rxTrace: after).matchedSliceCount == 0)
        // Had the phone kept its day epoch, the disclosure would cover those later codes.
        let kept = day.codes(from: t, to: midnight + 45_000).map { P6RxRecord(time: $0.start + 5, uuidIndex: $0.uuidIndex, code: $0.code) }
        #expect(P6Matcher.match(epoch: day, rxTrace: kept).matchedSliceCount == kept.count)
    }
}
