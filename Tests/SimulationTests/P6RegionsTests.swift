@testable import Analytics
@testable import Distribution
import EventEngine
import GSL
import P6
@testable import P6Phones
@testable import Simulation
import Testing
@testable import World

/// P6's regional disclosure streams: home regions, stated regions, files per stream and who fetches them.
@Suite struct P6RegionsTests {
    let start = CivilCalendar.time(year: 2020, month: 10, day: 1)

    @Test func regionsAreEqualBlocksOfWholeHouseholds() {
        // Households of 1–4 people, numbered in person order.
        var householdOf: [Int32] = []
        for h in 0..<1_000 { householdOf += [Int32](repeating: Int32(h), count: 1 + h % 4) }
        let regions = P6Regions(count: 4, householdOf: householdOf, households: 1_000, owners: [0, 5, Int32(householdOf.count - 1)])
        for p in 1..<householdOf.count where householdOf[p] == householdOf[p - 1] {
            #expect(regions.ofPerson[p] == regions.ofPerson[p - 1])
        }
        var households = [Set<Int32>](repeating: [], count: 4)
        for (p, h) in householdOf.enumerated() { households[Int(regions.ofPerson[p])].insert(h) }
        #expect(households.map(\.count) == [250, 250, 250, 250])
        #expect(regions.ofPhone == [0, 0, 3])
    }

    /// A discloser who states where it has been adds the home regions of everyone it met from its
    /// first disclosed day on; the others publish in their home region only.
    @Test func statedRegionsAreTheHomesOfThoseMet() {
        let householdOf = (0..<Int32(8)).map { $0 }   // one person per household: person p is in region p / 2
        let regions = P6Regions(count: 4, householdOf: householdOf, households: 8, owners: [])
        let startDay = SimClock.dayNumber(start)
        func day(_ index: Int, _ pairs: [(Int32, Int32)]) -> GroundTruthDay {
            GroundTruthDay(dayIndex: index, contacts: pairs.map { .init(pair: GroundTruthDay.key($0.0, $0.1), within: 60, total: 600) },
                           closeContactSeconds: 900)
        }
        // Person 0 met 3 (region 1) on day 0 and 7 (region 3) on day 2; person 5 met 2 (region 1) on day 2.
        let truth = [day(0, [(0, 3)]), day(1, []), day(2, [(7, 0), (5, 2)])]
        let disclosers = [P6Regions.Discloser(person: 0, index: 0, fromDay: startDay), P6Regions.Discloser(person: 0, index: 1, fromDay: startDay + 1),
                          P6Regions.Discloser(person: 5, index: 2, fromDay: startDay)]
        let all = regions.streams(disclosers, statedShare: 1, seed: 1, groundTruth: truth, startDay: startDay)
        #expect(all == [[0, 1, 3], [0, 3], [1, 2]])
        let none = regions.streams(disclosers, statedShare: 0, seed: 1, groundTruth: truth, startDay: startDay)
        #expect(none == [[0], [0], [2]])
        // About half state their regions at share 0.5, each decided on its own stream.
        let many = (0..<2_000).map { P6Regions.Discloser(person: 0, index: $0, fromDay: startDay) }
        let stated = regions.streams(many, statedShare: 0.5, seed: 1, groundTruth: truth, startDay: startDay).filter { $0.count > 1 }.count
        let ci = Proportion.clopperPearson(successes: stated, trials: many.count, confidence: 0.999)
        #expect(ci.lower <= 0.5 && 0.5 <= ci.upper)
    }

    func disclosure(at t: SimTime, streams: [Int32]) -> P6PublishedDisclosure {
        let stream = RandomStream(seed: 1, stream: "x", generator: .taus2)
        let epoch = P6PhoneModel.epoch(seed: 1, phone: 0, midnight: start - SimDuration.day, stream: stream)
        let d = try! P6Disclosure(id: stream.bytes(16), epochs: [epoch], rxTrace: [])
        var published = P6PublishedDisclosure(disclosure: d, person: 0, phone: 0, testedAt: t - 3_600, at: t,
                                              fileTime: (t / 3_600 + 1) * 3_600, bytes: d.encodedByteCount)
        published.streams = streams
        return published
    }

    static var reliable: DistributionParameters {
        var p = DistributionParameters()
        (p.offlineShareIOS, p.offlineShareAndroid, p.deferralShareIOS, p.deferralShareAndroid, p.cdnErrorRate) = (0, 0, 0, 0, 0)
        return p
    }

    /// Phones 0, 1 live in region 0, phones 2, 3 in region 1. Per hour one file per stream that
    /// has a disclosure; with `home` a phone fetches its own stream's files only, with `all` both.
    @Test func phonesFetchTheFilesOfTheStreamsTheySubscribeTo() {
        let all = [disclosure(at: start + 3_700, streams: [0]), disclosure(at: start + 3_800, streams: [1]),
                   disclosure(at: start + 40_000, streams: [0, 1])]
        let home = P6DisclosureDownloads(parameters: Self.reliable, periodSeconds: 3_600, seed: 2, start: start,
                                         phoneIsIOS: [false, true, false, true], regionOfPhone: [0, 0, 1, 1], regions: 2,
                                         subscription: .home, threads: 2)
        home.publish(all, until: start + SimDuration.day)
        // Hour 1: a file in each stream; hour 11: the disclosure in both streams, one file each.
        #expect(home.files.map(\.stream) == [0, 1, 0, 1] && home.files.map(\.sequenceInStream) == [0, 0, 1, 1])
        #expect(home.files.map(\.disclosures) == [[0], [1], [2], [2]])
        #expect(home.streams.map(\.clients) == [[0, 1], [2, 3]])
        let fetched = home.advance(until: start + SimDuration.day, unavailableContactPhones: [false, false, false, false])
        for d in fetched { #expect(home.files[d.package].stream == Int(d.phone) / 2) }
        #expect(fetched.count == 8)   // each phone its stream's two files
        #expect(home.hasFetched(phone: 0, disclosure: 0) && !home.hasFetched(phone: 0, disclosure: 1) && home.hasFetched(phone: 0, disclosure: 2))
        #expect(home.hasFetched(phone: 3, disclosure: 1) && !home.hasFetched(phone: 3, disclosure: 0) && home.hasFetched(phone: 3, disclosure: 2))
        #expect(home.streams.map { $0.txBytes + $0.rxBytes } == [2 * Int64(home.files[0].bytes + home.files[2].bytes),
                                                                 2 * Int64(home.files[1].bytes + home.files[3].bytes)])
        #expect(fetched == fetched.sorted { ($0.at, $0.phone, $0.package) < ($1.at, $1.phone, $1.package) })

        let every = P6DisclosureDownloads(parameters: Self.reliable, periodSeconds: 3_600, seed: 2, start: start,
                                          phoneIsIOS: [false, true, false, true], regionOfPhone: [0, 0, 1, 1], regions: 2,
                                          subscription: .all, threads: 2)
        every.publish(all, until: start + SimDuration.day)
        let both = every.advance(until: start + SimDuration.day, unavailableContactPhones: [false, false, false, false])
        #expect(both.count == 16 && (0..<4).allSatisfy { p in (0..<3).allSatisfy { every.hasFetched(phone: p, disclosure: $0) } })
        // A phone's bytes per day are its two streams' together.
        let perPhone = every.bytesPerPhoneDay()
        #expect(perPhone.count == 4 && perPhone.allSatisfy { $0 > Double(home.files.reduce(0) { $0 + $1.bytes }) })
    }

    static func config(regions: Int, subscription: P6Subscription, stated: Double, threads: Int = 1) -> SimulationConfig {
        var c = P6RunTests.config(p6: true, iosShare: 0.1, threads: threads)
        c.p6.regions = regions
        c.p6.subscription = subscription
        c.p6.statedRegionsShare = stated
        return c
    }

    /// In a run, every full match is of a disclosure in one of the phone's streams, a stated
    /// disclosure's streams hold the homes of everyone the case met, and the regional report adds up.
    @Test func runsMatchOnlyWhatTheirStreamsCarry() throws {
        for stated in [0.0, 1.0] {
            let (sim, results) = P6RunTests.run(Self.config(regions: 3, subscription: .home, stated: stated))
            let p6 = try #require(sim.p6)
            #expect(!p6.fullMatches.isEmpty)
            for m in p6.fullMatches {
                #expect(p6.disclosures[Int(m.disclosure)].streams.contains(p6.regions.ofPhone[Int(m.phone)]))
            }
            let startDay = SimClock.dayNumber(sim.config.start)
            for d in p6.disclosures {
                #expect(d.streams.contains(p6.regions.ofPerson[Int(d.person)]))
                if stated == 0 { #expect(d.streams.count == 1) }
            }
            if stated == 1 {
                // The last day's disclosers: every retained contact day is still in the ground truth.
                let last = try #require(p6.disclosures.last)
                for day in sim.groundTruth where startDay + Int64(day.dayIndex) >= SimClock.dayNumber(last.at) {
                    for pair in day.pairs {
                        let a = Int32(truncatingIfNeeded: pair >> 32), b = Int32(truncatingIfNeeded: pair & 0xffff_ffff)
                        if a == last.person { #expect(last.streams.contains(p6.regions.ofPerson[Int(b)])) }
                        if b == last.person { #expect(last.streams.contains(p6.regions.ofPerson[Int(a)])) }
                    }
                }
                #expect(p6.disclosures.contains { $0.streams.count > 1 })
            }
            let summary = try #require(results.summary.p6?.regions)
            #expect(summary.count == 3)
            let table = try #require(results.tables.first { $0.name == "p6_regions.csv" }?.table)
            #expect(table.rows.count == 3)
            let phones = table.rows.map { row -> Int64 in if case .integer(let n) = row[1] { n } else { -1 } }
            #expect(phones.reduce(0, +) == Int64(p6.phones))
        }
    }

    @Test func regionalRunsAreIdenticalWhateverTheThreads() {
        let one = P6RunTests.run(Self.config(regions: 2, subscription: .all, stated: 0.5)).1
        let three = P6RunTests.run(Self.config(regions: 2, subscription: .all, stated: 0.5, threads: 3)).1
        #expect(one == three)
        #expect(one.summary.p6?.regions?.subscription == "all")
    }
}
