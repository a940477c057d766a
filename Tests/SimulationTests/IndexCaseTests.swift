import EventEngine
import GSL
@testable import HealthBackend
@testable import Simulation
import Testing

/// Index cases: daily counts, each case's dates in order, and the delays' distributions.
@Suite struct IndexCaseTests {
    static let start: SimTime = 18_536 * SimDuration.day   // 2020-10-01

    /// Cases of `days` consecutive days with `parameters` (10,000 people).
    static func draw(_ parameters: HealthParameters, days: Int = 200, seed: UInt64 = 11) -> [[PositiveCase]] {
        var generator = IndexCaseGenerator(parameters: parameters, seed: seed, populationSize: 10_000, series: nil)
        return (0..<days).map { generator.cases(midnight: start + Int64($0) * SimDuration.day) }
    }

    static func days(_ t: Int64) -> Double { Double(t) / Double(SimDuration.day) }

    @Test func datesComeInOrderAndResultsFallOnTheirDay() {
        var p = HealthParameters()
        p.casesPerDay = 20
        let byDay = Self.draw(p)
        var people = Set<Int32>()
        for (d, cases) in byDay.enumerated() {
            let midnight = Self.start + Int64(d) * SimDuration.day
            for c in cases {
                #expect(people.insert(c.person).inserted, "a person is an index case at most once")
                #expect(c.resultAt >= midnight && c.resultAt < midnight + SimDuration.day)
                #expect(c.infectedAt < c.infectiousFromDay * SimDuration.day + SimDuration.day)
                #expect(c.infectedAt < c.testedAt && c.testedAt <= c.resultAt)
                if let onset = c.symptomOnset {
                    #expect(c.infectiousFromDay == SimClock.dayNumber(onset) - 2)
                    #expect(c.infectedAt < onset - 2 * SimDuration.day + 1 && onset <= c.testedAt)
                }
            }
        }
    }

    /// Counts are Poisson(cases_per_day); shares and delays match their parameters within 99.9%
    /// intervals (GSL).
    @Test func countsSharesAndDelaysFollowTheParameters() {
        var p = HealthParameters()
        p.casesPerDay = 20
        let byDay = Self.draw(p)
        let counts = Statistics.meanConfidenceInterval(byDay.map { Double($0.count) }, confidence: 0.999)
        #expect(counts.contains(20))
        let cases = byDay.flatMap { $0 }
        let asymptomatic = Proportion.clopperPearson(successes: cases.filter { $0.symptomOnset == nil }.count, trials: cases.count,
                                                     confidence: 0.999)
        #expect(asymptomatic.lower <= 0.3 && 0.3 <= asymptomatic.upper)
        let resultDelay = cases.map { Double($0.resultAt - $0.testedAt) / 3_600 }
        #expect(Statistics.meanConfidenceInterval(resultDelay, confidence: 0.999).contains(30))
        let onsetToTest = cases.compactMap { c in c.symptomOnset.map { Self.days(c.testedAt - $0) } }
        #expect(Statistics.meanConfidenceInterval(onsetToTest, confidence: 0.999).contains(2))
        // Latent period: infection → onset − 2 days for symptomatic cases; incubation = latent + 2.
        let incubation = cases.compactMap { c in c.symptomOnset.map { Self.days($0 - c.infectedAt) } }
        let mean = Statistics.meanConfidenceInterval(incubation, confidence: 0.999)
        #expect(mean.contains(5), "mean incubation \(mean)")
        #expect(abs(Statistics.standardDeviation(incubation) - 1.5) < 0.15)
    }

    /// The latent period has its own stream: changing it moves infection dates only.
    @Test func latentPeriodLeavesTheOtherDatesUnchanged() {
        var a = HealthParameters(), b = HealthParameters()
        a.casesPerDay = 10
        b.casesPerDay = 10
        b.latentPeriodDays = Delay(mean: 6, sd: 2)
        let x = Self.draw(a, days: 30).flatMap { $0 }, y = Self.draw(b, days: 30).flatMap { $0 }
        #expect(x.count == y.count && !x.isEmpty)
        for (c, d) in zip(x, y) {
            #expect(c.person == d.person && c.testedAt == d.testedAt && c.resultAt == d.resultAt)
            #expect(c.symptomOnset == d.symptomOnset && c.infectiousFromDay == d.infectiousFromDay)
        }
        #expect(Statistics.mean(zip(x, y).map { Self.days($0.infectedAt - $1.infectedAt) }) > 2)
    }

    /// The clock's cases drawn ahead (to count what tests do before their results) are the cases
    /// it then draws day by day, in a small population where people already positive matter.
    @Test func casesDrawnAheadAreTheCasesTheClockDraws() {
        var p = HealthParameters()
        p.casesPerDay = 30
        var clock = CaseClock(parameters: p, seed: 4, populationSize: 400, series: nil)
        var ahead: [PositiveCase] = []
        for d in 0..<12 {
            let midnight = Self.start + Int64(d) * SimDuration.day
            ahead += clock.drawAhead(from: midnight, through: midnight + 3 * SimDuration.day)
            _ = clock.drawDay(midnight: midnight)
        }
        #expect(clock.cases.count > 200)
        #expect(Array(ahead.prefix(clock.cases.count)).map(\.person) == clock.cases.map(\.person))
        #expect(Array(ahead.prefix(clock.cases.count)).map(\.testedAt) == clock.cases.map(\.testedAt))
        #expect(ahead.count > clock.cases.count)
    }

    /// Ten days with the default result delay (mean 30 h, sd 15 h: 219 h).
    @Test func lookaheadCoversTheResultDelay() {
        let delay = HealthParameters().resultDelayHours
        #expect(abs(delay.upperQuantile(1e-9) - 218.65) < 0.05)
        #expect(Delay(mean: 24, sd: 0).upperQuantile(1e-9) == 24)
    }

    /// Extreme means and spreads that pass the keys' ranges: a retry delay of 1e-320 minutes
    /// (sd 15) made the gamma's scale infinite and its draw NaN, which trapped as seconds (found
    /// by `.ci/fuzz-scenarios`). Every draw and quantile is now a finite delay ≥ 0.
    @Test func delaysWithNegligibleMeansOrSpreadsAreFinite() {
        let rng = RandomStream(seed: 1, stream: "delay")
        for (mean, sd, expected) in [(1e-320, 15.0, 0.0), (5e-324, 1e-3, 0.0), (30.0, 1e-320, 30.0), (30.0, 5e-324, 30.0),
                                     (1e-300, 1e-300, nil), (0, 5, 0), (7, 0, 7)] as [(Double, Double, Double?)] {
            let delay = Delay(mean: mean, sd: sd)
            for x in (0..<200).map({ _ in delay.draw(rng) }) + [delay.upperQuantile(1e-9)] {
                #expect(x.isFinite && x >= 0, "mean \(mean), sd \(sd): \(x)")
                if let expected { #expect(x == expected, "mean \(mean), sd \(sd)") }
            }
            #expect(Int64(exactly: (delay.draw(rng) * 60).rounded()) != nil)
        }
        let usual = Delay(mean: 30, sd: 15), again = RandomStream(seed: 1, stream: "delay-usual"), gsl = RandomStream(seed: 1, stream: "delay-usual")
        #expect((0..<100).map { _ in usual.draw(again) } == (0..<100).map { _ in gsl.gamma(shape: 4, scale: 7.5) })
    }
}
