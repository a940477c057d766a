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
    /// When set (the epidemic), the day's cases come from here instead of the case series.
    package var source: ((SimTime) -> [PositiveCase])?

    public init(parameters: HealthParameters, seed: UInt64, populationSize: Int, series: CaseSeries?) {
        generator = IndexCaseGenerator(parameters: parameters, seed: seed, populationSize: populationSize, series: series)
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
