@testable import Distribution
import EventEngine
import GSL
import P6
@testable import P6Phones
@testable import Simulation
import Testing

/// P6 disclosure files fetched through the distribution model.
@Suite struct P6DisclosureDownloadsTests {
    let start = CivilCalendar.time(year: 2020, month: 10, day: 1)

    func disclosure(at t: SimTime, rxRecords: Int) -> P6PublishedDisclosure {
        let stream = RandomStream(seed: 1, stream: "x", generator: .taus2)
        let epoch = P6PhoneModel.epoch(seed: 1, phone: 0, midnight: start - SimDuration.day, stream: stream)
        let rx = (0..<rxRecords).map { P6RxRecord(time: start + Int64($0) * 60, uuidIndex: $0 % 8, code: UInt32($0)) }
        let d = try! P6Disclosure(id: stream.bytes(16), epochs: [epoch], rxTrace: rx)
        return P6PublishedDisclosure(disclosure: d, person: 0, phone: 0, testedAt: t - 3_600, at: t,
                                     fileTime: (t / 3_600 + 1) * 3_600, bytes: d.encodedByteCount)
    }

    @Test func filesSplitTxAndRxBytesAndPhonesThatCannotRunFetchLater() {
        var p = DistributionParameters()
        (p.offlineShareIOS, p.offlineShareAndroid, p.deferralShareIOS, p.deferralShareAndroid, p.cdnErrorRate) = (0, 0, 0, 0, 0)
        let downloads = P6DisclosureDownloads(parameters: p, periodSeconds: 3_600, seed: 2, start: start, phoneIsIOS: [false, true], threads: 2)
        // Two disclosures in the 10:00 hour make one file, one at 15:20 another; no other hour has a file.
        let all = [disclosure(at: start + 36_100, rxRecords: 3), disclosure(at: start + 37_000, rxRecords: 0),
                   disclosure(at: start + 55_200, rxRecords: 10)]
        downloads.publish(all, until: start + SimDuration.day)
        #expect(downloads.files.map(\.publishedAt) == [start + 39_600, start + 57_600])
        #expect(downloads.files.map(\.disclosures) == [[0, 1], [2]])
        let f = downloads.files[0]
        #expect(f.rxBytes == 3 * 9 && f.txBytes == 4 + all[0].bytes - 27 + all[1].bytes && f.bytes == 4 + all[0].bytes + all[1].bytes)
        // Phone 1's app cannot run on day 0: it fetches nothing, then both files on day 1.
        let day0 = downloads.advance(until: start + SimDuration.day, unavailableContactPhones: [false, true])
        #expect(Set(day0.map(\.phone)) == [0] && day0.count == 2 && day0.allSatisfy { $0.at >= downloads.files[$0.package].publishedAt })
        #expect(downloads.hasFetched(phone: 0, disclosure: 2) && !downloads.hasFetched(phone: 1, disclosure: 0))
        let day1 = downloads.advance(until: start + 2 * SimDuration.day, unavailableContactPhones: [false, false])
        #expect(day1.map(\.phone) == [1, 1] && day1.map(\.package) == [0, 1] && day1[0].at >= start + SimDuration.day)
        #expect(downloads.txBytes == 2 * Int64(downloads.files.map(\.txBytes).reduce(0, +)))
        #expect(downloads.rxBytes == 2 * Int64(13 * 9))
    }
}
