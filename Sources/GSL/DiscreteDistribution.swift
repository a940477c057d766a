import CGSL

/// A categorical distribution over 0..<weights.count (GSL's Walker alias tables).
/// Immutable after creation; sampling only reads the table, so threads may share one.
public final class DiscreteDistribution: @unchecked Sendable {
    private let table: UnsafeMutablePointer<gsl_ran_discrete_t>
    public let weights: [Double]

    /// Weights need not sum to one; they must be finite, non-negative and not all zero.
    public init(weights: [Double]) throws {
        guard !weights.isEmpty, weights.allSatisfy({ $0.isFinite && $0 >= 0 }), weights.contains(where: { $0 > 0 }) else {
            throw GSLError.invalidArgument("discrete distribution needs finite non-negative weights, not all zero")
        }
        returnGSLErrors()
        guard let table = weights.withUnsafeBufferPointer({ gsl_ran_discrete_preproc($0.count, $0.baseAddress) }) else {
            throw GSLError.invalidArgument("GSL rejected the discrete distribution weights")
        }
        self.table = table
        self.weights = weights
    }

    deinit { gsl_ran_discrete_free(table) }

    public func sample(_ rng: RandomStream) -> Int { Int(gsl_ran_discrete(rng.rng, table)) }

    /// Probability of category `i` (its normalised weight).
    public func probability(_ i: Int) -> Double { gsl_ran_discrete_pdf(i, table) }
}

public enum GSLError: Error, CustomStringConvertible, Equatable {
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .invalidArgument(let message): return message
        }
    }
}
