import GSL

// Small value shapes that recur in the stages' summaries. Each encodes itself the way
// summary.json shows it; only Reporting turns them into JSON.

/// An estimate with its interval: `estimate`, `ci_lower`, `ci_upper`, `confidence`.
public struct IntervalSummary: Equatable, Sendable, Encodable {
    public let estimate: Double
    public let lower: Double
    public let upper: Double
    public let confidence: Double

    public init(_ ci: ConfidenceInterval) {
        estimate = ci.estimate
        lower = ci.lower
        upper = ci.upper
        confidence = ci.confidence
    }

    package enum CodingKeys: String, CodingKey {
        case estimate, lower = "ci_lower", upper = "ci_upper", confidence
    }
}

/// A rate x / n with its Clopper–Pearson 95% interval (GSL), times `scale` (e.g. 1,000 for
/// "per 1,000"). With n = 0 there is no interval: the estimate reads "n/a".
public struct ProportionSummary: Equatable, Sendable, Encodable {
    public let successes: Int
    public let trials: Int
    /// The scaled interval; nil when there are no trials.
    public let interval: IntervalSummary?

    public init(_ x: Int, of n: Int, scale: Double = 1) {
        successes = x
        trials = n
        guard n > 0 else { interval = nil; return }
        let ci = Proportion.clopperPearson(successes: x, trials: n)
        interval = IntervalSummary(ConfidenceInterval(estimate: ci.estimate * scale, lower: ci.lower * scale, upper: ci.upper * scale,
                                                      confidence: ci.confidence))
    }

    /// x / n with a Wilson 95% interval, for counts in the millions (the radio's adverts): a closed
    /// form, where Clopper–Pearson bisects GSL's beta CDF (NaN near the mean at that size, so it
    /// falls back to the normal approximation there: `Proportion.betaQuantile`).
    public static func wilson(_ x: Int, of n: Int) -> ProportionSummary {
        ProportionSummary(x, n, interval: n > 0 ? IntervalSummary(Proportion.wilson(successes: x, trials: n)) : nil)
    }

    private init(_ x: Int, _ n: Int, interval: IntervalSummary?) {
        successes = x
        trials = n
        self.interval = interval
    }

    public enum Part: String, CaseIterable, Sendable { case estimate, lower = "ci_lower", upper = "ci_upper" }

    /// The estimate or a bound as a table cell ("n/a" without trials).
    public func cell(_ part: Part) -> ResultTable.Cell {
        guard let interval else { return .text(Quantile.notAvailable) }
        switch part {
        case .estimate: return .number(interval.estimate)
        case .lower: return .number(interval.lower)
        case .upper: return .number(interval.upper)
        }
    }

    package enum CodingKeys: String, CodingKey {
        case estimate, lower = "ci_lower", upper = "ci_upper", confidence, successes, trials
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        guard let interval else {
            try c.encode(Quantile.notAvailable, forKey: .estimate)
            try c.encode(trials, forKey: .trials)
            return
        }
        try c.encode(interval.estimate, forKey: .estimate)
        try c.encode(interval.lower, forKey: .lower)
        try c.encode(interval.upper, forKey: .upper)
        try c.encode(interval.confidence, forKey: .confidence)
        try c.encode(successes, forKey: .successes)
        try c.encode(trials, forKey: .trials)
    }
}

/// A quantile of a sample that may be empty: a number, or "n/a".
public struct Quantile: Equatable, Sendable, Encodable {
    package static let notAvailable = "n/a"
    public let value: Double?

    /// The `p` quantile of `sorted` (GSL), nil when it is empty.
    public init(sorted: [Double], _ p: Double) {
        value = sorted.isEmpty ? nil : Statistics.quantile(sorted: sorted, p)
    }

    public var cell: ResultTable.Cell { value.map { .number($0) } ?? .text(Self.notAvailable) }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let value { try c.encode(value) } else { try c.encode(Self.notAvailable) }
    }
}

/// Values under names known only at run time (endpoints, causes, event kinds), kept in order.
public struct NamedValues<Value: Equatable & Sendable & Encodable>: Equatable, Sendable, Encodable {
    public struct Entry: Equatable, Sendable {
        public let name: String
        public let value: Value
    }

    public let entries: [Entry]

    public init(_ pairs: [(String, Value)]) { entries = pairs.map { Entry(name: $0.0, value: $0.1) } }

    public subscript(name: String) -> Value? { entries.first { $0.name == name }?.value }

    package struct Key: CodingKey {
        package let stringValue: String
        package init(stringValue: String) { self.stringValue = stringValue }
        package var intValue: Int? { nil }
        package init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for e in entries { try c.encode(e.value, forKey: Key(stringValue: e.name)) }
    }
}
