import EventEngine
import GSL
@testable import HealthBackend
import P6
@testable import P6Phones
@testable import Simulation
import Testing

/// A disclosure ends the phone's epoch at once; it goes on with a new one.
@Suite struct P6EpochRestartTests {
    let midnight = CivilCalendar.time(year: 2020, month: 10, day: 2)
    let stream = RandomStream(seed: 0, stream: "x", generator: .taus2)

    @Test func scheduleCutsTheDayEpochAndStartsAFreshOneOnTheSliceGrid() {
        let t = midnight + 10 * 3_600 + 30
        let day = P6PhoneModel.epoch(seed: 4, phone: 9, midnight: midnight, stream: stream)
        let epochs = P6PhoneModel.epochs(seed: 4, phone: 9, midnight: midnight, disclosures: [t], stream: stream)
        #expect(epochs.count == 2)
        #expect(epochs[0] == (try! day.ended(at: t)))
        #expect(epochs[1].start == midnight + 10 * 3_600 + 60 && epochs[1].end == midnight + SimDuration.day)
        #expect(epochs[1].iec != day.iec && epochs[1].epk != day.epk)
        #expect(P6PhoneModel.epochs(seed: 4, phone: 9, midnight: midnight, disclosures: [], stream: stream) == [day])
    }

    /// Receptions recorded with the day epoch (as the contact phase does at midnight) are
    /// re-derived: before the disclosure they still match the disclosed trace, after it they do
    /// not, they are the new epoch's codes, and nothing is heard before its first slice.
    @Test func codesHeardAfterTheDisclosureComeFromTheNewEpoch() throws {
        let sender: Int32 = 1, receiver: Int32 = 0, t = midnight + 12 * 3_600 + 17
        let day = P6PhoneModel.epoch(seed: 4, phone: Int(sender), midnight: midnight, stream: stream)
        var batch = P6RxBatch()
        for s in day.codes(from: t - 1_800, to: t + 1_800) {
            batch.receivers.append(receiver)
            batch.senders.append(sender)
            // The receiver's clock runs 2 s ahead: the record carries its local time.
            batch.records.append(P6PackedRx.pack(P6RxRecord(time: s.start + 30 + 2, uuidIndex: s.uuidIndex, code: s.code), midnight: midnight))
        }
        let epochs = P6PhoneModel.epochs(seed: 4, phone: Int(sender), midnight: midnight, disclosures: [t], stream: stream)
        batch.restartingEpochs([sender: epochs], clockOffsets: [2.2, 0], midnight: midnight)
        let heard = batch.records.map { P6PackedRx.unpack($0, midnight: midnight) }
        let before = heard.filter { $0.time - 2 < t }, after = heard.filter { $0.time - 2 >= t }
        #expect(heard.count == 59 && before.count == 29 && after.count == 30)  // heard in the disclosure's slice after it: dropped
        let disclosed = try day.ended(at: t)
        #expect(P6Matcher.match(epoch: disclosed, rxTrace: before).matchedSliceCount == 29)
        #expect(P6Matcher.match(epoch: day, rxTrace: after).matchedSliceCount == 0)
        let fresh = epochs[1]
        #expect(P6Matcher.match(epoch: fresh, rxTrace: after.map { P6RxRecord(time: $0.time - 2, uuidIndex: $0.uuidIndex, code: $0.code) })
                      .matchedSliceCount == 30)
    }

    /// The seed's 24 h minimum: the epoch started after a first disclosure is disclosed again
    /// only by a disclosure at least 24 h after it started.
    @Test func newEpochIsDisclosedOnlyOnceItIs24HoursOld() {
        var p = P6RunParameters()
        p.enabled = true
        let builder = P6DisclosureBuilder(parameters: p, seed: 4, phoneIsIOS: [false])
        let first = midnight + 12 * 3_600
        let positive = PositiveCase(person: 0, infectedAt: midnight - 4 * SimDuration.day, infectiousFromDay: SimClock.dayNumber(midnight) - 1, symptomOnset: nil,
                                    testedAt: first - 3_600, resultAt: first - 600)
        func disclosed(at t: SimTime) -> [P6Epoch] {
            builder.build(CaseUpload(positiveCase: positive, phone: 0, at: t), index: 0, rx: P6RxStore(retentionDays: 21),
                          start: midnight - SimDuration.day, disclosedAt: [first, t]).disclosure.epochs
        }
        let fresh = P6PhoneModel.epochs(seed: 4, phone: 0, midnight: midnight, disclosures: [first], stream: stream)[1]
        let early = disclosed(at: fresh.start + 86_399), late = disclosed(at: fresh.start + 86_400)
        #expect(!early.contains(fresh) && late.contains(fresh))
        for (epochs, t) in [(early, fresh.start + 86_399), (late, fresh.start + 86_400)] {
            #expect(epochs.allSatisfy { $0.start + 86_400 <= t && $0.end <= t })
        }
        // The first disclosure itself: its day's epoch cut at the disclosure, nothing newer.
        let firstEpochs = builder.build(CaseUpload(positiveCase: positive, phone: 0, at: first), index: 0, rx: P6RxStore(retentionDays: 21),
                                        start: midnight - SimDuration.day, disclosedAt: [first]).disclosure.epochs
        #expect(firstEpochs.count == 1 && firstEpochs[0].end == midnight)
    }
}
