import EventEngine

/// The health system's clock: each UTC midnight's index cases and the delivery of their results.
///
/// A case is known by its index, its place in draw order. The caller schedules each new case's
/// result at its `resultAt` and calls `deliver` then; the dates are `IndexCaseGenerator`'s,
/// drawn per day and per person, so nothing here depends on event order.
public struct CaseClock {
    private var generator: IndexCaseGenerator
    /// Every case drawn so far (results may still be pending), in draw order.
    public private(set) var cases: [PositiveCase] = []
    /// Cases whose result has been delivered, in delivery order.
    public private(set) var delivered: [PositiveCase] = []
    private var indexOfPerson: [Int32: Int32] = [:]
    /// A copy of the draw state that runs ahead of the clock: it draws each day's cases as the
    /// clock will (same streams, same people already positive), only earlier.
    private var ahead: IndexCaseGenerator
    private var aheadNext: SimTime?
    /// When set (the epidemic), the day's cases come from here instead of the case series.
    package var source: ((SimTime) -> [PositiveCase])?
    /// Whether `drawAhead` sees the cases before their day (not with the epidemic as source).
    package var drawsAhead: Bool { source == nil }

    public init(parameters: HealthParameters, seed: UInt64, populationSize: Int, series: CaseSeries?) {
        generator = IndexCaseGenerator(parameters: parameters, seed: seed, populationSize: populationSize, series: series)
        ahead = generator
    }

    /// The cases of the days up to the one starting at `lastMidnight` not drawn ahead before,
    /// from the first day the clock draws: what happens before their results (CWA's test
    /// registration and polling) is counted when it happens, not when the result is drawn.
    public mutating func drawAhead(from firstMidnight: SimTime, through lastMidnight: SimTime) -> [PositiveCase] {
        // The epidemic's cases arise from the run itself and cannot be drawn ahead.
        guard source == nil else { return [] }
        var drawn: [PositiveCase] = []
        var midnight = aheadNext ?? firstMidnight
        while midnight <= lastMidnight {
            drawn += ahead.cases(midnight: midnight)
            midnight += SimDuration.day
        }
        aheadNext = midnight
        return drawn
    }

    /// Draws the cases whose results arrive on the day starting at `midnight`; returns their
    /// indices, in result-time order.
    public mutating func drawDay(midnight: SimTime) -> Range<Int32> {
        let first = Int32(cases.count)
        for c in source?(midnight) ?? generator.cases(midnight: midnight) {
            indexOfPerson[c.person] = Int32(cases.count)
            cases.append(c)
        }
        return first..<Int32(cases.count)
    }

    public subscript(i: Int32) -> PositiveCase { cases[Int(i)] }

    /// The case of `person` (a person is an index case at most once per run), nil if none.
    public func index(ofPerson person: Int32) -> Int32? { indexOfPerson[person] }

    /// Case `i`'s result reaches the person.
    @discardableResult
    public mutating func deliver(_ i: Int32) -> PositiveCase {
        delivered.append(cases[Int(i)])
        return cases[Int(i)]
    }
}
