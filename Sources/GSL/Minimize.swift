import CGSL

/// Minimisation of a function of several variables without derivatives: GSL's Nelder–Mead
/// simplex (`gsl_multimin_fminimizer_nmsimplex2`), for maximum-likelihood fits.
public enum Minimize {
    public struct Result: Sendable {
        public let x: [Double]
        public let value: Double
        public let iterations: Int
        /// The simplex shrank below `tolerance` (its characteristic size) before `maxIterations`.
        public let converged: Bool
    }

    private final class Objective {
        let f: ([Double]) -> Double
        init(_ f: @escaping ([Double]) -> Double) { self.f = f }
    }

    /// Minimises `f` from `start`, with initial simplex steps `step` (one per variable).
    public static func nelderMead(start: [Double], step: [Double], tolerance: Double = 1e-6, maxIterations: Int = 10_000,
                                  _ f: @escaping ([Double]) -> Double) -> Result {
        returnGSLErrors()
        precondition(!start.isEmpty && step.count == start.count, "one step per variable")
        let n = start.count
        let objective = Objective(f)
        let context = Unmanaged.passRetained(objective)
        defer { context.release() }
        // GSL keeps the pointer to this struct for the whole minimisation: it must not be a
        // temporary (`&function` would be valid only during the call that receives it).
        let function = UnsafeMutablePointer<gsl_multimin_function>.allocate(capacity: 1)
        defer { function.deallocate() }
        function.initialize(to: gsl_multimin_function(
            f: { x, params in
                let objective = Unmanaged<Objective>.fromOpaque(params!).takeUnretainedValue()
                let v = x!.pointee
                let point = (0..<v.size).map { gsl_vector_get(x, $0) }
                let value = objective.f(point)
                return value.isFinite ? value : .greatestFiniteMagnitude
            },
            n: n, params: context.toOpaque()))
        let x = gsl_vector_alloc(n)!, steps = gsl_vector_alloc(n)!
        defer { gsl_vector_free(x); gsl_vector_free(steps) }
        for i in 0..<n {
            gsl_vector_set(x, i, start[i])
            gsl_vector_set(steps, i, step[i])
        }
        let minimizer = gsl_multimin_fminimizer_alloc(ensim_nmsimplex2(), n)!
        defer { gsl_multimin_fminimizer_free(minimizer) }
        gsl_multimin_fminimizer_set(minimizer, function, x, steps)
        var iterations = 0, converged = false
        while iterations < maxIterations {
            iterations += 1
            if gsl_multimin_fminimizer_iterate(minimizer) != GSL_SUCCESS { break }
            if gsl_multimin_test_size(gsl_multimin_fminimizer_size(minimizer), tolerance) == GSL_SUCCESS {
                converged = true
                break
            }
        }
        let best = (0..<n).map { gsl_vector_get(minimizer.pointee.x, $0) }
        return Result(x: best, value: minimizer.pointee.fval, iterations: iterations, converged: converged)
    }
}
