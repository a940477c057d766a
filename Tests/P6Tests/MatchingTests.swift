@testable import P6
import Testing

@Suite("P6 matching")
struct MatchingTests {
    let epoch = makeEpoch(seed: 2024)

    private func received(_ s: Int, offset: Int64 = 17) -> P6RxRecord {
        let tx = epoch.allCodes()[s]
        return P6RxRecord(time: tx.start + offset, uuidIndex: tx.uuidIndex, code: tx.code)
    }

    /// Unrelated receptions (other devices) that cannot match.
    private func noise(count: Int, seed: UInt64) -> [P6RxRecord] {
        var g = TestBytes(seed: seed)
        let codes = Set(epoch.allCodes().map(\.code))
        return (0..<count).compactMap { _ in
            let t = epoch.start + Int64(g.next() % UInt64(epoch.duration))
            let c = UInt32(truncatingIfNeeded: g.next())
            return codes.contains(c) ? nil : P6RxRecord(time: t, uuidIndex: Int(g.next() % 8), code: c)
        }
    }

    @Test func plantedThreeInFiveIsAFullMatch() {
        // Slices 100, 102, 104 within a 5-slice window; duplicates in slice 102.
        let rx = [received(100), received(102), received(102, offset: 40), received(104)] + noise(count: 2000, seed: 1)
        let r = P6Matcher.match(epoch: epoch, rxTrace: rx)
        #expect(r.matchedSliceCount == 3)
        #expect(r.singles.isEmpty)
        #expect(r.matches.count == 1)
        let m = r.matches[0]
        #expect(m.firstSlice == 100 && m.lastSlice == 104)
        #expect(m.slices.map(\.sliceIndex) == [100, 102, 104])
        #expect(m.start == epoch.sliceStart(100) && m.end == epoch.sliceStart(105))
    }

    @Test func spreadOutMatchesAreNotFull() {
        // Three matches spanning 6 slices do not fit a 5-slice window.
        let r = P6Matcher.match(epoch: epoch, rxTrace: [received(100), received(102), received(105)])
        #expect(r.matchedSliceCount == 3)
        #expect(r.matches.isEmpty)
        #expect(r.singles.map(\.sliceIndex) == [100, 102, 105])
        // With a 6-slice window they are.
        let wide = P6Matcher.match(epoch: epoch, rxTrace: [received(100), received(102), received(105)], window: 6)
        #expect(wide.matches.count == 1 && wide.singles.isEmpty)
    }

    @Test func loneCoincidenceIsSingleOnly() {
        let rx = [received(700)] + noise(count: 500, seed: 2)
        let r = P6Matcher.match(epoch: epoch, rxTrace: rx)
        #expect(r.matchedSliceCount == 1)
        #expect(r.matches.isEmpty)
        #expect(r.singles.map(\.sliceIndex) == [700])
        #expect(r.singles[0].code == epoch.allCodes()[700].code)
    }

    @Test func wrongUUIDOrSliceDoesNotMatch() {
        let good = received(300)
        let wrongUUID = P6RxRecord(time: good.time, uuidIndex: (good.uuidIndex + 1) % 8, code: good.code)
        let wrongSlice = P6RxRecord(time: good.time + 60, uuidIndex: good.uuidIndex, code: good.code)
        let outside = P6RxRecord(time: epoch.end + 5, uuidIndex: good.uuidIndex, code: good.code)
        let r = P6Matcher.match(epoch: epoch, rxTrace: [wrongUUID, wrongSlice, outside])
        #expect(r.matchedSliceCount == 0)
    }

    @Test func overlappingWindowsMergeAndSeparateClustersStaySeparate() {
        let slices = [10, 11, 12, 15, 16, 17, 400, 401, 402, 900]
        let r = P6Matcher.match(epoch: epoch, rxTrace: slices.map { received($0) })
        #expect(r.matchedSliceCount == 10)
        #expect(r.matches.map(\.firstSlice) == [10, 400])
        #expect(r.matches.map(\.lastSlice) == [17, 402])
        #expect(r.singles.map(\.sliceIndex) == [900])
        // Threshold 4: 10,11,12 alone is not enough, but 12,15,16 + ... : windows of 5 slices
        // never hold 4 matches here except none → all singles.
        let strict = P6Matcher.match(epoch: epoch, rxTrace: slices.map { received($0) }, threshold: 4)
        #expect(strict.matches.isEmpty)
        #expect(strict.singles.count == 10)
    }
}
