import EventEngine
import GSL

/// Draws each day's index cases among the population and their timelines.
///
/// The daily rate counts positive *results* (as case statistics do), so a case drawn on day d
/// gets its result on day d and its earlier dates are drawn backwards: result delay, test,
/// symptom onset, infection. Results start on the first simulated day that way.
/// Each day's count and people come from stream ("health.cases", day); each case's dates from
/// ("health.case", person), so they never depend on event order; the latent period before
/// infectiousness from ("health.infection", person), so it leaves the other dates unchanged.
public struct IndexCaseGenerator {
    public let parameters: HealthParameters
    public let seed: UInt64
    public let populationSize: Int
    public let series: CaseSeries?
    private var positive: Set<Int32> = []

    public init(parameters: HealthParameters, seed: UInt64, populationSize: Int, series: CaseSeries?) {
        self.parameters = parameters
        self.seed = seed
        self.populationSize = populationSize
        self.series = series
    }

    /// Mean positive results on the UTC day starting at `midnight`.
    public func expectedCases(midnight: SimTime) -> Double {
        if let series { return (series.countsByDay[SimClock.dayNumber(midnight)] ?? 0) * parameters.casesCSVScale }
        return parameters.casesPerDay
    }

    /// The cases whose results arrive on the day starting at `midnight`, in result-time order.
    /// A person is an index case at most once per run.
    public mutating func cases(midnight: SimTime) -> [PositiveCase] {
        let day = SimClock.dayNumber(midnight)
        let rng = RandomStream(seed: seed, stream: "health.cases", index: UInt64(bitPattern: day))
        let count = min(rng.poisson(mean: expectedCases(midnight: midnight)), populationSize - positive.count)
        var result: [PositiveCase] = []
        result.reserveCapacity(count)
        let caseStream = RandomStream(seed: seed, stream: "health.case", generator: .taus2)
        let infectionStream = RandomStream(seed: seed, stream: "health.infection", generator: .taus2)
        while result.count < count {
            let person = Int32(rng.uniformInt(populationSize))
            if !positive.insert(person).inserted { continue }
            caseStream.reseed(StreamKey(seed: seed, stream: "health.case", index: UInt64(person)))
            infectionStream.reseed(StreamKey(seed: seed, stream: "health.infection", index: UInt64(person)))
            result.append(timeline(person: person, midnight: midnight, rng: caseStream, infection: infectionStream))
        }
        return result.sorted { ($0.resultAt, $0.person) < ($1.resultAt, $1.person) }
    }

    package func timeline(person: Int32, midnight: SimTime, rng: RandomStream, infection: RandomStream) -> PositiveCase {
        let p = parameters
        let resultAt = midnight + Int64(rng.uniformInt(Int(SimDuration.day)))
        let testedAt = resultAt - Int64(p.resultDelayHours.draw(rng) * Double(SimDuration.hour))
        let asymptomatic = rng.bernoulli(p: p.asymptomaticShare)
        let beforeTest = Int64(p.onsetToTest.draw(rng) * Double(SimDuration.day))
        let latent = Int64(p.latentPeriodDays.draw(infection) * Double(SimDuration.day))
        if asymptomatic {
            // Tested (screening, tracing) some days after becoming infectious.
            let infectiousFrom = testedAt - beforeTest
            return PositiveCase(person: person, infectedAt: infectiousFrom - latent, infectiousFromDay: SimClock.dayNumber(infectiousFrom),
                                symptomOnset: nil, testedAt: testedAt, resultAt: resultAt)
        }
        let onset = testedAt - beforeTest
        let infectiousFrom = onset - Int64(p.presymptomaticDays) * SimDuration.day
        return PositiveCase(person: person, infectedAt: infectiousFrom - latent,
                            infectiousFromDay: SimClock.dayNumber(onset) - Int64(p.presymptomaticDays),
                            symptomOnset: onset, testedAt: testedAt, resultAt: resultAt)
    }
}
