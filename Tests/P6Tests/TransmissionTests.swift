@testable import P6
import Testing

@Suite("P6 transmission schedule")
struct TransmissionTests {
    let epoch = makeEpoch(seed: 42)

    private func expected(slice s: Int) -> (Int, UInt32) {
        let fc = epoch.frameCode(s / 8)
        let part = fc.sliceOrder[s % 8]
        return (part, fc.part(part))
    }

    @Test func outsideTheEpochIsNil() {
        #expect(epoch.transmission(at: epoch.start - 1) == nil)
        #expect(epoch.transmission(at: epoch.end) == nil)
        #expect(epoch.transmission(at: epoch.end - 1) != nil)
        #expect(epoch.transmission(at: epoch.start) != nil)
    }

    @Test func sliceBoundaries() throws {
        // First and last second of slice 0 and slice 1.
        let a = try #require(epoch.transmission(at: epoch.start))
        let b = try #require(epoch.transmission(at: epoch.start + 59))
        let c = try #require(epoch.transmission(at: epoch.start + 60))
        #expect(a.sliceIndex == 0 && b.sliceIndex == 0 && c.sliceIndex == 1)
        #expect(a.code == b.code && a.uuidIndex == b.uuidIndex)
        #expect(a.uuidIndex == epoch.frameCode(0).sliceOrder[0])
        #expect(a.code == epoch.frameCode(0).part(a.uuidIndex))
        #expect(c.uuidIndex != a.uuidIndex)
        let (cp, cc) = expected(slice: 1)
        #expect(c.uuidIndex == cp && c.code == cc)
    }

    @Test func frameBoundary() throws {
        // Last second of frame 0 (slice 7) and first second of frame 1 (slice 8).
        let last0 = try #require(epoch.transmission(at: epoch.start + 8 * 60 - 1))
        let first1 = try #require(epoch.transmission(at: epoch.start + 8 * 60))
        #expect(last0.sliceIndex == 7 && first1.sliceIndex == 8)
        let fc1 = epoch.frameCode(1)
        #expect(first1.uuidIndex == fc1.sliceOrder[0])
        #expect(first1.code == fc1.part(first1.uuidIndex))
        let (p7, c7) = expected(slice: 7)
        #expect(last0.uuidIndex == p7 && last0.code == c7)
        // Last slice of the day: slice 1439, frame 179, position 7.
        let end = try #require(epoch.transmission(at: epoch.end - 1))
        #expect(end.sliceIndex == 1439)
        let (pe, ce) = expected(slice: 1439)
        #expect(end.uuidIndex == pe && end.code == ce)
    }

    @Test func eachFrameSendsEveryPartOnce() {
        let codes = epoch.allCodes()
        #expect(codes.count == 1440)
        for k in 0..<180 {
            let frame = codes[(8 * k)..<(8 * k + 8)]
            #expect(Set(frame.map(\.uuidIndex)) == Set(0..<8))
            let fc = epoch.frameCode(k)
            #expect(Set(frame.map(\.code)) == Set((0..<8).map { fc.part($0) }))
        }
    }

    @Test func replayRangeAndCursorAgree() {
        let all = epoch.allCodes()
        // Slices whose start lies in [from, to).
        let part = epoch.codes(from: epoch.start + 61, to: epoch.start + 600)
        #expect(part.map(\.sliceIndex) == Array(2...9))
        #expect(part == Array(all[2...9]))
        #expect(epoch.codes(from: epoch.start - 1000, to: epoch.start + 1) == [all[0]])
        #expect(epoch.codes(from: epoch.end, to: epoch.end + 100).isEmpty)
        // Random-access cursor (backwards too) matches the replay.
        var cursor = P6TxCursor(epoch: epoch)
        for s in [1000, 3, 1439, 0, 800, 801, 17] {
            #expect(cursor.slice(s) == all[s])
            let t = cursor.transmission(at: all[s].start + 30)
            #expect(t?.sliceIndex == s && t?.code == all[s].code && t?.uuidIndex == all[s].uuidIndex)
        }
    }

    @Test func shortEpochAndPartialLastSlice() throws {
        // First use at 10:00:30 UTC: epoch runs to midnight, last slice 30 s long.
        let start: Int64 = 1_700_006_400 + 36_030
        let d = P6Epoch.secondsToNextUTCMidnight(from: start)
        #expect(d == 86_400 - 36_030)
        let e = makeEpoch(seed: 3, start: start, duration: d)
        #expect(e.sliceCount == 840)
        #expect(e.transmission(at: e.end - 1)?.sliceIndex == 839)
        #expect(e.allCodes().count == 840)
        // A disclosure ends the epoch at once.
        let cut = try e.ended(at: start + 125)
        #expect(cut.duration == 125 && cut.sliceCount == 3)
        #expect(cut.transmission(at: start + 125) == nil)
        #expect(cut.allCodes() == Array(e.allCodes().prefix(3)))
        #expect(throws: P6Error.invalidEndTime(start)) { try e.ended(at: start) }
    }

    @Test func configurableSliceDuration() {
        let e = makeEpoch(seed: 9, sliceDuration: 30)
        #expect(e.sliceCount == 2880)
        #expect(e.transmission(at: e.start + 29)?.sliceIndex == 0)
        #expect(e.transmission(at: e.start + 30)?.sliceIndex == 1)
        let tx = e.allCodes()[9]
        #expect(tx.start == e.start + 270)
        #expect(tx.major == UInt16(tx.code >> 16) && tx.minor == UInt16(tx.code & 0xFFFF))
    }
}
