import EventEngine
import GAEN
import GSL
@testable import Simulation
import Testing
@testable import World

@Suite struct RadioScheduleTests {
    let midnight = CivilCalendar.time(year: 2020, month: 10, day: 1)

    @Test func scanInstantsInsideAContact() {
        let stream = RandomStream(seed: 0, stream: "x", generator: .taus2)
        let s = ScanSchedule(seed: 1, phone: 2, dayIndex: 0, midnight: midnight, period: 300, stream: stream)
        #expect((0..<300).contains(s.phase))
        let first = midnight + s.phase
        // A contact of exactly 15 minutes starting at a scan instant sees 3 scans.
        #expect(Array(s.instants(from: first, to: first + 900)) == [first, first + 300, first + 600])
        // Starting one second later: the first scan is missed, the one at +900 is outside.
        #expect(Array(s.instants(from: first + 1, to: first + 901)) == [first + 300, first + 600, first + 900])
        #expect(Array(s.instants(from: first + 1, to: first + 299)).isEmpty)
        // Before the first scan of the day.
        #expect(Array(s.instants(from: midnight, to: first + 1)) == [first])
    }

    @Test func rpiRotationBoundaries() {
        let stream = RandomStream(seed: 0, stream: "x", generator: .taus2)
        let r = RPIRotationSchedule(seed: 3, phone: 7, dayIndex: 0, midnight: midnight, minMinutes: 10, maxMinutes: 20, stream: stream)
        #expect(r.offsets.first == 0)
        let gaps = zip(r.offsets.dropFirst(), r.offsets).map { $0 - $1 }
        #expect(gaps.allSatisfy { (600...1200).contains($0) })
        #expect(r.offsets.last! < 86_400 && 86_400 - r.offsets.last! <= 1200)
        #expect(r.broadcastInterval(at: midnight) == ENIntervalNumber(unixTime: midnight))
        for (i, offset) in r.offsets.enumerated() {
            let t = midnight + Int64(offset)
            #expect(r.broadcastInterval(at: t) == ENIntervalNumber(unixTime: t))
            #expect(r.broadcastInterval(at: t + Int64(gaps.indices.contains(i) ? gaps[i] - 1 : 0)) == ENIntervalNumber(unixTime: t))
        }
        // Intervals of U[10, 20] minutes average 15 minutes (≈ 96 rotations a day).
        var stats = RunningStatistics()
        for phone in 0..<2_000 {
            let s = RPIRotationSchedule(seed: 3, phone: phone, dayIndex: 0, midnight: midnight, minMinutes: 10, maxMinutes: 20, stream: stream)
            for (a, b) in zip(s.offsets.dropFirst(), s.offsets).dropLast() { stats.add(Double(a - b) / 60) }
        }
        #expect(stats.meanConfidenceInterval(confidence: 0.999).contains(15.0 + 0.5 / 60))
    }

    /// A schedule drawn through a second of the day is the start of the whole day's, reaches past
    /// that second, and answers every time it covers as the whole day's does.
    @Test func schedulesDrawnPartlyAreTheStartOfTheDays() {
        let stream = RandomStream(seed: 0, stream: "x", generator: .taus2)
        let day = RPIRotationSchedule(seed: 3, phone: 7, dayIndex: 0, midnight: midnight, minMinutes: 10, maxMinutes: 20, stream: stream)
        #expect(day.isComplete)
        for through in [Int32(0), 599, 600, 5_000, 43_210, 86_000, 86_399] {
            let part = RPIRotationSchedule(seed: 3, phone: 7, dayIndex: 0, midnight: midnight, minMinutes: 10, maxMinutes: 20, stream: stream,
                                           through: through)
            #expect(Array(day.offsets.prefix(part.offsets.count)) == part.offsets, "through \(through)")
            #expect(part.covers(midnight + Int64(through)) && (part.isComplete || part.offsets.last! > through))
            #expect(!part.isComplete || part.offsets.count == day.offsets.count)
            for t in stride(from: midnight, through: midnight + Int64(through), by: 61) {
                #expect(part.rotationPeriod(at: t) == day.rotationPeriod(at: t), "through \(through), at \(t - midnight)")
            }
        }
    }

    /// Stepping forward from an earlier time's period finds what the search finds.
    @Test func steppingFindsTheSearchedPeriod() {
        let stream = RandomStream(seed: 0, stream: "x", generator: .taus2)
        let r = RPIRotationSchedule(seed: 3, phone: 7, dayIndex: 0, midnight: midnight, minMinutes: 10, maxMinutes: 20, stream: stream)
        var k = 0, steps = 0
        for t in stride(from: midnight, to: midnight + 86_400, by: 97) {
            let next = r.periodIndex(at: t, from: k)
            steps += next - k
            k = next
            #expect(k == r.periodIndex(at: t) && r.period(k) == r.rotationPeriod(at: t) && r.period(k).contains(t))
        }
        #expect(steps == r.offsets.count - 1)
    }
}

extension RadioScheduleTests {
    /// Keys that share a slot evict each other; every answer is still that key's own value.
    @Test func dayCacheAnswersEachKeysOwnValue() {
        let stream = RandomStream(seed: 0, stream: "x", generator: .taus2)
        var cache = DayCache<RPIRotationSchedule>(slots: 2)
        var made = 0
        for phone in [1, 5, 1, 9, 5, 5, 2, 1, 1] {
            let cached: RPIRotationSchedule
            if let hit = cache.cached(key: UInt64(phone)) { cached = hit } else {
                made += 1
                cached = RPIRotationSchedule(seed: 3, phone: phone, dayIndex: 0, midnight: midnight, minMinutes: 10, maxMinutes: 20, stream: stream)
                cache.store(cached, key: UInt64(phone))
            }
            let direct = RPIRotationSchedule(seed: 3, phone: phone, dayIndex: 0, midnight: midnight, minMinutes: 10, maxMinutes: 20, stream: stream)
            #expect(cached.offsets == direct.offsets)
        }
        // Four phones in two slots: some lookups miss, but a phone asked twice in a row always hits.
        #expect(made >= 4 && made <= 7)
    }
}

@Suite struct ChannelModelTests {
    let model = ChannelModel(.default)

    /// The table only ever decides what the formula would: every attenuation around the reception
    /// threshold, with random draws and draws just either side of the exact probability.
    @Test func tabulatedReceptionEqualsTheFormula() {
        let model = ChannelModel(.default)
        let stream = RandomStream(seed: 5, stream: "reception", generator: .taus2)
        var a = model.alwaysBelow - 3
        while a < model.neverAbove + 3 {
            let p = model.receptionProbability(attenuation: a)
            for u in [stream.uniform(), stream.uniform(), p, p.nextDown, p.nextUp, max(0, p - 1e-13), min(1, p + 1e-13)] {
                #expect(model.receives(attenuation: a, draw: u) == (u < p), "attenuation \(a), draw \(u)")
            }
            a += 0.00731
        }
    }

    @Test func attenuationGrowsWithDistanceAndReceptionFalls() {
        let a = [0.5, 1, 2, 4, 8].map { model.meanAttenuation(metres: Float($0), layer: .household, extraLoss: 0) }
        #expect(a == a.sorted() && Set(a).count == a.count)
        #expect(abs(model.meanAttenuation(metres: 1, layer: .community, extraLoss: 0) - 42) < 1e-9)
        #expect(abs(model.meanAttenuation(metres: 10, layer: .community, extraLoss: 5) - (42 + 20 + 5)) < 1e-9)
        let p = stride(from: 40.0, through: 120, by: 5).map { model.receptionProbability(attenuation: $0) }
        #expect(zip(p, p.dropFirst()).allSatisfy { $0 > $1 })
        #expect(abs(model.receptionProbability(attenuation: 82) - 0.5) < 1e-12)
    }

    /// Far from the reception limit every advert is heard: the typical attenuation of a window
    /// averages the mean, within the confidence interval from GSL.
    @Test func typicalAttenuationMatchesTheModel() {
        let stream = RandomStream(seed: 11, stream: "window")
        var typical: [Double] = []
        var minimumBelowTypical = true
        for _ in 0..<20_000 {
            guard let w = ContactRadio.window(mean: 55.3, adverts: 17, model: model, stream: stream) else { continue }
            typical.append(Double(w.typical))
            minimumBelowTypical = minimumBelowTypical && w.minimum <= w.typical
        }
        #expect(typical.count == 20_000 && minimumBelowTypical)
        // Rounding to a byte adds at most ±0.5 dB; the mean of 17 fades has σ = 3/√17.
        let ci = Statistics.meanConfidenceInterval(typical, confidence: 0.999)
        #expect(ci.lower - 0.5 <= 55.3 && 55.3 <= ci.upper + 0.5)
        #expect(abs(Statistics.standardDeviation(typical) - (3 / 17.0.squareRoot())) < 0.35)
    }

    @Test func nothingIsHeardBeyondTheReceptionLimit() {
        let stream = RandomStream(seed: 12, stream: "window")
        #expect((0..<1000).allSatisfy { _ in ContactRadio.window(mean: 140, adverts: 17, model: model, stream: stream) == nil })
        // Near the midpoint about half of the windows of one advert are heard.
        let heard = (0..<20_000).filter { _ in ContactRadio.window(mean: 82, adverts: 1, model: model, stream: stream) != nil }.count
        #expect(Proportion.clopperPearson(successes: heard, trials: 20_000, confidence: 0.999).contains(0.5))
    }

    @Test func contactClosedFormIsDeterministicAndTimed() {
        let midnight = CivilCalendar.time(year: 2020, month: 10, day: 1)
        let scans = ScanSchedule(seed: 1, phone: 0, dayIndex: 0, midnight: midnight, period: 300,
                                 stream: RandomStream(seed: 0, stream: "x", generator: .taus2))
        let start = midnight + 3600
        let segments = [ContactSegment(seconds: 600, metres: 1), ContactSegment(seconds: 600, metres: 30)]
        func run() -> [HeardScan] {
            var heard: [HeardScan] = []
            segments.withUnsafeBufferPointer { b in
                ContactRadio.hear(segments: b, start: start, layer: .household, scans: scans, model: model, extraLoss: 0,
                                  stream: RandomStream(seed: 5, stream: "radio", index: 1), into: &heard)
            }
            return heard
        }
        let heard = run()
        #expect(heard == run())
        // Two scans fall in the first 10 minutes at 1 m; at 30 m (≈ 75 dB mean + 8.8) nearly nothing.
        let close = heard.filter { $0.time < start + 600 }
        #expect(close.count == 2)
        #expect(close.allSatisfy { $0.secondsSinceLastScan == 300 && (40...60).contains($0.typicalAttenuation) })
        #expect(heard.allSatisfy { $0.time >= start && $0.time < start + 1200 })
    }

    @Test func invalidParametersAreNamed() {
        var p = RadioParameters()
        #expect(p.validate().isEmpty)
        p.fadingSigma = -1
        p.placementShares = [0.5, 0.5, 0.5]
        p.scanWindowSeconds = 400
        let problems = p.validate()
        #expect(problems.count == 3)
        #expect(problems.contains { $0.contains("fading_sigma_db") })
    }
}

@Suite struct PhoneRadiosTests {
    @Test func deviceModelsFollowTheConfiguredShares() {
        var p = RadioParameters()
        p.deviceModels = p.deviceModels.map { m in
            var m = m
            if m.os == .android { m.share = m.key == "nexus_5x" ? 0.75 : (m.key == "pixel_4" ? 0.25 : 0) }
            return m
        }
        let os = (0..<20_000).map { $0 % 2 == 0 ? OperatingSystem.iOS : .android }
        let radios = PhoneRadios(phoneOS: os, parameters: p, seed: 4)
        var nexus = 0
        for phone in os.indices {
            let model = radios.models[Int(radios.modelOf[phone])]
            #expect(model.os == os[phone])
            if os[phone] == .android {
                #expect(model.key == "nexus_5x" || model.key == "pixel_4")
                if model.key == "nexus_5x" { nexus += 1 }
            }
        }
        #expect(Proportion.clopperPearson(successes: nexus, trials: 10_000, confidence: 0.999).contains(0.75))
        #expect(radios.txPower(0) == -8)
    }
}

extension RadioScheduleTests {
    /// The recorder's rotation cache answers as a schedule drawn for the asked second does, through
    /// evictions (two slots) and schedules drawn further when a later second is asked about.
    @Test func rotationCacheAnswersAsTheSchedule() {
        let stream = RandomStream(seed: 0, stream: "x", generator: .taus2)
        let family = RPIRotationSchedule.family(seed: 3)
        let cache = RotationCache(family: family, dayIndex: 2, midnight: midnight, minMinutes: 10, maxMinutes: 20,
                                  stream: RandomStream(seed: 0, stream: "y", generator: .taus2), slots: 2)
        let asks: [(phone: Int, second: Int32)] = [(1, 300), (1, 200), (1, 5_000), (5, 86_399), (9, 0), (1, 4_000), (5, 40_000),
                                                   (2, 70_000), (1, 86_399), (9, 600), (9, 30_000), (2, 100)]
        for (phone, second) in asks {
            let whole = RPIRotationSchedule(family: family, phone: phone, dayIndex: 2, midnight: midnight, minMinutes: 10, maxMinutes: 20,
                                            stream: stream)
            let periods = cache.rotations(of: phone, through: second)
            #expect(periods.covers(midnight + Int64(second)), "phone \(phone) at \(second)")
            #expect(Array(periods.offsets) == Array(whole.offsets.prefix(periods.offsets.count)), "phone \(phone) at \(second)")
            var k = 0
            for t in stride(from: midnight, through: midnight + Int64(second), by: 53) {
                k = periods.periodIndex(at: t, from: k)
                #expect(periods.period(k) == whole.rotationPeriod(at: t), "phone \(phone) at \(t - midnight)")
            }
        }
    }
}
