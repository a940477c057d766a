import EventEngine
import GSL
import P6
@testable import P6Phones
@testable import Simulation
import Testing
@testable import World

@Suite struct P6ContactReceptionTests {
    let midnight = CivilCalendar.time(year: 2020, month: 10, day: 1)

    func heard(metres: Float, minutes: Int32, sessions: [Range<SimTime>]? = nil, offset: Double = 0.4) -> (P6Epoch, [P6RxRecord]) {
        let s = RandomStream(seed: 0, stream: "x", generator: .taus2)
        let epoch = P6PhoneModel.epoch(seed: 1, phone: 2, midnight: midnight, stream: s)
        let start = midnight + 10 * 3600
        let segments = [ContactSegment(seconds: minutes * 60, metres: metres)]
        var records: [P6RxRecord] = []
        segments.withUnsafeBufferPointer { seg in
            P6ContactReception.hear(segments: seg, start: start, layer: .household, sender: epoch,
                                    sessions: sessions ?? [midnight..<(midnight + SimDuration.day)], model: ChannelModel(.default),
                                    extraLoss: 6, clockOffsetSeconds: offset, stream: RandomStream(seed: 4, stream: "p6-rx", generator: .taus2),
                                    into: &records)
        }
        return (epoch, records)
    }

    @Test func closeContactIsMatchedAndStrangerIsNot() {
        let (epoch, records) = heard(metres: 1, minutes: 20)
        #expect(records.count >= 15)
        let match = P6Matcher.match(epoch: epoch, rxTrace: records)
        #expect(match.matches.count == 1 && match.matchedSliceCount >= 15)
        // A stranger's epoch (another phone) finds nothing in the same trace.
        let stranger = P6PhoneModel.epoch(seed: 1, phone: 3, midnight: midnight, stream: RandomStream(seed: 0, stream: "x", generator: .taus2))
        #expect(P6Matcher.match(epoch: stranger, rxTrace: records).matchedSliceCount == 0)
    }

    @Test func nothingIsHeardWhileTheSenderDoesNotTransmitOrIsFarAway() {
        #expect(heard(metres: 1, minutes: 20, sessions: []).1.isEmpty)
        let start = midnight + 10 * 3600
        let (_, partial) = heard(metres: 1, minutes: 20, sessions: [start..<(start + 300)])
        #expect(partial.count >= 4 && partial.count <= 6)
        // The shared channel model hears far (98% of scan windows at 10 m); at 2 km a slice is rarely heard.
        #expect(heard(metres: 2000, minutes: 20).1.count <= 3)
    }
}
