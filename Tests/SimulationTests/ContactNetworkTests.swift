import EventEngine
import Foundation
import GSL
@testable import Simulation
import SimulationCore
import Testing
@testable import World

@Suite struct ContactNetworkTests {
    static let thursday = CivilCalendar.time(year: 2020, month: 10, day: 1)
    static let saturday = CivilCalendar.time(year: 2020, month: 10, day: 3)

    struct Drawn: Equatable {
        var a: Int32, b: Int32, start: Int64, layer: ContactLayer, segments: [ContactSegment]
    }

    func contacts(_ network: ContactNetwork, person: Int, midnight: SimTime, dayIndex: Int = 0) -> [Drawn] {
        var out: [Drawn] = []
        var buffer: [ContactSegment] = []
        let stream = RandomStream(seed: 0, stream: "scratch", generator: .taus2)
        network.contacts(initiatedBy: person, dayIndex: dayIndex, midnight: midnight, stream: stream, segments: &buffer) { c in
            out.append(Drawn(a: c.a, b: c.b, start: c.start, layer: c.layer, segments: Array(c.segments)))
        }
        return out
    }

    func network(size: Int = 20_000, seed: UInt64 = 9, _ edit: (inout ContactParameters) -> Void = { _ in }) -> ContactNetwork {
        var p = ContactParameters()
        edit(&p)
        return ContactNetwork(population: Population(PopulationParameters(size: size, appAdoption: 0.5), seed: seed), parameters: p, seed: seed)
    }

    @Test func householdsPartitionThePopulation() {
        let n = network()
        #expect(n.householdStart.first == 0 && n.householdStart.last == 20_000)
        let sizes = zip(n.householdStart.dropFirst(), n.householdStart).map { Int($0 - $1) }
        #expect(sizes.allSatisfy { (1...5).contains($0) })
        let singles = sizes.filter { $0 == 1 }.count
        #expect(Proportion.clopperPearson(successes: singles, trials: sizes.count, confidence: 0.999).contains(0.41))
    }

    @Test func contactsAreValidAndEndBeforeMidnight() {
        let n = network()
        for person in stride(from: 0, to: 20_000, by: 97) {
            for c in contacts(n, person: person, midnight: Self.thursday) {
                #expect(c.a == Int32(person) && c.b != c.a && (0..<20_000).contains(c.b))
                let duration = c.segments.reduce(0) { $0 + Int64($1.seconds) }
                #expect(duration >= 60 && c.start >= Self.thursday && c.start + duration <= Self.thursday + 86_400)
                #expect(c.segments.allSatisfy { $0.seconds > 0 && ContactShape.log10MetresRange.contains($0.log10Metres) })
                if c.layer == .household { #expect(n.householdOf[Int(c.b)] == n.householdOf[person] && c.b > c.a) }
                if c.layer == .transport { #expect(c.segments.allSatisfy { (0...log10(3.0)).contains($0.log10Metres) }) }
            }
        }
    }

    @Test func noWorkSchoolOrCommuteAtWeekends() {
        let n = network()
        let layers = Set((0..<2_000).flatMap { contacts(n, person: $0, midnight: Self.saturday) }.map(\.layer))
        #expect(layers.isSubset(of: [.household, .community]))
        let weekday = Set((0..<2_000).flatMap { contacts(n, person: $0, midnight: Self.thursday) }.map(\.layer))
        #expect(weekday == Set(ContactLayer.allCases))
    }

    @Test func communityCountsFollowTheNegativeBinomial() {
        let n = network { $0.communityContactsMean = 6; $0.communityDispersion = 0.5 }
        let counts = (0..<20_000).map { person in Double(contacts(n, person: person, midnight: Self.saturday).filter { $0.layer == .community }.count) }
        // Initiated mean is half the per-person mean; variance = m + m²/k with m = 3.
        #expect(Statistics.meanConfidenceInterval(counts, confidence: 0.999).contains(3))
        #expect(abs(Statistics.variance(counts) - (3 + 9 / 0.5)) < 2)
    }

    @Test func sameInputsSameContactsAndDaysDiffer() {
        let n = network()
        #expect(contacts(n, person: 123, midnight: Self.thursday) == contacts(n, person: 123, midnight: Self.thursday))
        let other = contacts(n, person: 123, midnight: Self.thursday + 86_400, dayIndex: 1)
        #expect(other != contacts(n, person: 123, midnight: Self.thursday))
    }

    /// Each layer draws from its own stream: changing transport leaves community contacts alone.
    @Test func layersDoNotShiftEachOther() {
        let a = network()
        let b = network { $0.transportContactsPerTrip = 20; $0.workplaceContactsMean = 10 }
        for person in 0..<300 {
            let ca = contacts(a, person: person, midnight: Self.thursday).filter { $0.layer == .community || $0.layer == .household }
            let cb = contacts(b, person: person, midnight: Self.thursday).filter { $0.layer == .community || $0.layer == .household }
            #expect(ca == cb)
        }
    }
}

@Suite struct GroundTruthTests {
    @Test func aggregatesPairsAndAppliesTheCloseContactRule() {
        let k = GroundTruthDay.key
        let e = GroundTruthDay.Entry.init
        let truth = GroundTruthDay(dayIndex: 0, contacts: [
            e(k(5, 2), 600, 900), e(k(2, 5), 400, 400),  // same pair both ways: 1000 s within
            e(k(1, 3), 899, 2000),                       // just under 15 min
            e(k(7, 8), 900, 900),                        // exactly 15 min
        ], closeContactSeconds: 900)
        #expect(truth.pairs == [k(1, 3), k(2, 5), k(7, 8)])
        #expect(truth.secondsWithin == [899, 1000, 900])
        #expect(truth.secondsTotal == [2000, 1300, 900])
        #expect(truth.closeContacts == 2)
        #expect(truth.isCloseContact(5, 2) && truth.isCloseContact(8, 7))
        #expect(!truth.isCloseContact(1, 3) && !truth.isCloseContact(4, 6))
    }

    /// The shards' runs, merged, give each pair once with its summed seconds: pairs repeated
    /// within and across runs, empty runs, one run, and many; on any number of threads, with one
    /// range of pairs, one per first person (shift 0) and one per four (shift 2), here 30 people.
    @Test(arguments: [1, 2, 5, 40])
    func mergingRunsEqualsSortingTheirUnion(threads: Int) {
        let rng = RandomStream(seed: 21, stream: "runs")
        for runCount in [0, 1, 2, 3, 16, 40] {
            let runs = (0..<runCount).map { r in
                (0..<(r % 5 == 4 ? 0 : rng.uniformInt(300))).map { _ in
                    GroundTruthDay.Entry(pair: GroundTruthDay.key(Int32(rng.uniformInt(30)), Int32(rng.uniformInt(30))),
                                         within: Int32(rng.uniformInt(900)), total: Int32(rng.uniformInt(3600)))
                }
            }
            var sums: [UInt64: (within: Int32, total: Int32)] = [:]
            for e in runs.joined() { sums[e.pair, default: (0, 0)].within += e.within; sums[e.pair, default: (0, 0)].total += e.total }
            let pairs = sums.keys.sorted()
            for shift in [nil, 0, 2] {
                let merged = GroundTruthDay(dayIndex: 3, runs: runs, closeContactSeconds: 900, threads: threads, rangeShift: shift)
                #expect(merged.pairs == pairs, "\(runCount) runs, shift \(String(describing: shift))")
                #expect(merged.secondsWithin == pairs.map { sums[$0]!.within } && merged.secondsTotal == pairs.map { sums[$0]!.total },
                        "\(runCount) runs, shift \(String(describing: shift))")
            }
        }
    }

    /// Partitioning a run groups its contacts by range of first person, each range where `starts`
    /// says, and keeps every contact.
    @Test func partitioningGroupsContactsByRangeOfFirstPerson() {
        let rng = RandomStream(seed: 25, stream: "ranges")
        let entries = (0..<2_000).map { _ in
            GroundTruthDay.Entry(pair: GroundTruthDay.key(Int32(rng.uniformInt(5_000)), Int32(rng.uniformInt(5_000))),
                                 within: Int32(rng.uniformInt(900)), total: Int32(rng.uniformInt(3600)))
        }
        let ranges = GroundTruthDay.PairRanges(people: 5_000, shift: 7)
        #expect(ranges.count == 40 && GroundTruthDay.PairRanges(people: 5_000).count == 5)
        #expect(GroundTruthDay.PairRanges(people: 1_000_000).count == 977 && GroundTruthDay.PairRanges(people: 60_000_000).count == 916)
        let run = GroundTruthDay.partition(entries, by: ranges)
        #expect(run.starts.count == 41 && run.starts.first == 0 && run.starts.last == 2_000)
        for r in 0..<ranges.count {
            #expect(run.entries[run.starts[r]..<run.starts[r + 1]].allSatisfy { Int($0.pair >> 32) >> 7 == r }, "range \(r)")
        }
        func all(_ e: [GroundTruthDay.Entry]) -> [UInt64] { e.map { $0.pair ^ UInt64(UInt32($0.within)) << 1 ^ UInt64(UInt32($0.total)) << 17 }.sorted() }
        #expect(all(run.entries) == all(entries))
    }

    /// A merge that keeps only close contacts involving app phones writes exactly what filtering
    /// the whole merged day gives, and counts every pair and close contact as the whole day does.
    @Test(arguments: [1, 2, 5, 40])
    func mergingOnlyCloseContactsEqualsFilteringTheWholeDay(threads: Int) {
        let rng = RandomStream(seed: 24, stream: "runs")
        let runs = (0..<9).map { r in
            (0..<(r % 4 == 3 ? 0 : rng.uniformInt(400))).map { _ in
                GroundTruthDay.Entry(pair: GroundTruthDay.key(Int32(rng.uniformInt(40)), Int32(rng.uniformInt(40))),
                                     within: Int32(rng.uniformInt(1_200)), total: 1_200)
            }
        }
        let phoneOf = (0..<40).map { Int32($0 % 4 == 0 ? $0 / 4 : -1) }
        let ranges = GroundTruthDay.PairRanges(people: 40, shift: 3)
        func merge(_ keep: GroundTruthDay.Keep) -> GroundTruthDay.Merged {
            GroundTruthDay.merge(dayIndex: 2, runs: runs.map { GroundTruthDay.partition($0, by: ranges) }, ranges: ranges,
                                 closeContactSeconds: 900, threads: threads, keep: keep)
        }
        let whole = merge(.all), close = merge(.closeContacts(involving: phoneOf))
        let expected = whole.day.closeContactsOnly(involving: phoneOf)
        // Some pairs are close only once repeated; some close contacts are kept, most are not.
        #expect(expected.pairs.count > 20 && expected.pairs.count < whole.day.closeContacts)
        #expect(close.day.pairs == expected.pairs && close.day.secondsWithin == expected.secondsWithin)
        #expect(close.day.secondsTotal == expected.secondsTotal && close.day.dayIndex == 2)
        #expect(close.pairs == whole.day.pairs.count && whole.pairs == whole.day.pairs.count)
        #expect(close.closeContacts == whole.day.closeContacts && whole.closeContacts == whole.day.closeContacts)
    }

    /// The radix sort of a shard's contacts orders pairs as a comparison sort does and keeps every
    /// contact: small and large shards, ids of a few bits and of 27 (a national population).
    @Test(arguments: [(0, 30), (200, 30), (257, 30), (5_000, 1 << 12), (60_000, 1_000_000), (20_000, (1 << 27) - 1)])
    func radixSortOfContactsOrdersPairsAsSortingDoes(count: Int, people: Int) {
        let rng = RandomStream(seed: 23, stream: "radix")
        let entries = (0..<count).map { _ in
            GroundTruthDay.Entry(pair: GroundTruthDay.key(Int32(rng.uniformInt(people)), Int32(rng.uniformInt(people))),
                                 within: Int32(rng.uniformInt(900)), total: Int32(rng.uniformInt(3600)))
        }
        var sorted = entries
        sorted.withUnsafeMutableBufferPointer { GroundTruthDay.sortByPair($0) }
        let byPair = entries.sorted { $0.pair < $1.pair }
        func all(_ e: [GroundTruthDay.Entry]) -> [[Int64]] { e.map { [Int64($0.pair), Int64($0.within), Int64($0.total)] }.sorted { $0.lexicographicallyPrecedes($1) } }
        // Bools: a failure should not print the arrays.
        let ordered = sorted.map(\.pair) == byPair.map(\.pair), kept = all(sorted) == all(entries)
        #expect(ordered && kept, "\(count) contacts of \(people) people")
    }

    /// A pass whose digit every contact shares is skipped (here the second person's low 11 bits,
    /// always 0, and then a first person who is always the same): the order is still a sort's.
    @Test func radixSortSkipsPassesWhoseDigitAllContactsShare() {
        let rng = RandomStream(seed: 24, stream: "radix")
        for first in [nil, Int32(5)] {
            let entries = (0..<3_000).map { _ in
                GroundTruthDay.Entry(pair: UInt64(UInt32(first ?? Int32(rng.uniformInt(1 << 20)))) << 32
                                         | UInt64(rng.uniformInt(1 << 9) << 11),
                                     within: Int32(rng.uniformInt(900)), total: Int32(rng.uniformInt(3600)))
            }
            var sorted = entries
            sorted.withUnsafeMutableBufferPointer { GroundTruthDay.sortByPair($0) }
            let byPair = entries.enumerated().sorted { ($0.element.pair, $0.offset) < ($1.element.pair, $1.offset) }.map(\.element)
            // Stable, as before the skipping: contacts of one pair keep their order.
            #expect(sorted.map(\.pair) == byPair.map(\.pair) && sorted.map(\.total) == byPair.map(\.total),
                    "first \(String(describing: first))")
        }
    }

    /// Shards sized from the day before (`ShardSizes`) give each day what unsized shards give.
    @Test func shardsSizedFromTheDayBeforeGiveTheSameDays() {
        let population = Population(PopulationParameters(size: 5_000, appAdoption: 0.5), seed: 9)
        let network = ContactNetwork(population: population, parameters: ContactParameters(), seed: 9)
        let sizes = ShardSizes()
        for day in 0..<3 {
            let midnight = CivilCalendar.time(year: 2020, month: 10, day: 1 + day)
            func run(_ sizes: ShardSizes?) -> ContactDayResult {
                ContactPhase.run(network: network, population: population, dayIndex: day, midnight: midnight, threads: 3, seed: 9,
                                 sizes: sizes)
            }
            let plain = run(nil), sized = run(sizes)
            let (a, b) = (plain.truth, sized.truth)
            #expect(b.day.pairs == a.day.pairs && b.day.secondsWithin == a.day.secondsWithin && b.day.secondsTotal == a.day.secondsTotal)
            #expect(b.pairs == a.pairs && b.closeContacts == a.closeContacts)
            #expect(sized.byLayer == plain.byLayer && sized.appPairContacts == plain.appPairContacts)
            // From the second day on, the first shard is sized from the day before.
            if day > 0 { #expect(sizes.reservation(shard: 0) > 1_000) }
        }
    }

    /// The close contacts involving an app phone, filtered in chunks, are the same on any number of threads.
    @Test func closeContactsInvolvingAppPhonesAreTheSameOnAnyThreadCount() {
        let rng = RandomStream(seed: 22, stream: "close")
        let run = (0..<5_000).map { _ in
            GroundTruthDay.Entry(pair: GroundTruthDay.key(Int32(rng.uniformInt(400)), Int32(rng.uniformInt(400))),
                                 within: Int32(rng.uniformInt(1800)), total: 1800)
        }
        let day = GroundTruthDay(dayIndex: 1, runs: [run], closeContactSeconds: 900)
        let phoneOf = (0..<400).map { Int32($0 % 3 == 0 ? $0 / 3 : -1) }
        let expected = day.pairs.indices.filter { i in
            day.secondsWithin[i] >= 900 && (phoneOf[Int(day.pairs[i] >> 32)] >= 0 || phoneOf[Int(day.pairs[i] & 0xffff_ffff)] >= 0)
        }
        #expect(expected.count > 100 && expected.count < day.pairs.count / 2)
        for threads in [1, 2, 7] {
            let close = day.closeContactsOnly(involving: phoneOf, threads: threads)
            #expect(close.pairs == expected.map { day.pairs[$0] } && close.secondsWithin == expected.map { day.secondsWithin[$0] })
            #expect(close.secondsTotal == expected.map { day.secondsTotal[$0] } && close.closeContacts == expected.count)
        }
        #expect(day.closeContactsOnly().pairs.count == day.closeContacts)
    }

    @Test func secondsWithinCountsOnlyCloseSegments() {
        let segs = [ContactSegment(seconds: 300, metres: 1.5), ContactSegment(seconds: 200, metres: 2.0), ContactSegment(seconds: 100, metres: 2.1)]
        segs.withUnsafeBufferPointer { b in
            let v = ContactView(a: 0, b: 1, start: 0, layer: .community, segments: b)
            #expect(v.duration == 600)
            #expect(v.seconds(within: 2) == 500)
        }
    }

    /// Durations and distances are the layer's log-normals, drawn in log space: the share below the
    /// median and below median·e^(−σ) is Φ(0) and Φ(−1), and the mean duration is the layer's.
    @Test func durationsAndDistancesFollowTheLayersLogNormals() {
        let p = ContactParameters(), shape = ContactShape(layer: .community, parameters: p)
        var minutes: [Double] = [], log10Metres: [Double] = []
        var room = [ContactSegment](repeating: ContactSegment(seconds: 0, log10Metres: 0), count: ContactMaker.mostSegments)
        room.withUnsafeMutableBufferPointer { segments in
            var maker = ContactMaker(person: 0, midnight: 0, stream: RandomStream(seed: 3, stream: "shapes", generator: .taus2),
                                     segments: segments) { c in
                minutes.append(Double(c.duration) / 60)
                log10Metres.append(contentsOf: c.segments.map(\.log10Metres))
            }
            for _ in 0..<40_000 { maker.contact(with: 1, startWindow: 3600...3600, shape: shape) }
        }
        let mean = minutes.reduce(0, +) / Double(minutes.count)
        let sd = (minutes.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(minutes.count - 1)).squareRoot()
        #expect(abs(mean - p.communityMinutesMean) < 4 * sd / Double(minutes.count).squareRoot())
        let median = log10(p.communityMetresMedian), below = { (x: Double) in log10Metres.filter { $0 < x }.count }
        #expect(Proportion.clopperPearson(successes: below(median), trials: log10Metres.count, confidence: 0.999).contains(0.5))
        #expect(Proportion.clopperPearson(successes: below(median - 0.5 / M_LN10), trials: log10Metres.count, confidence: 0.999)
            .contains(0.158_655))
    }
}
