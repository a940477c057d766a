/// What the channel fits share once the simplex has found the maximum: standard errors from the
/// curvature of the negative log-likelihood.
enum MaximumLikelihood {
    /// Square roots of the diagonal of the inverse Hessian of `f` at `x` (central differences);
    /// nan where the curvature is not positive.
    /// - Complexity: 4·n² evaluations of `f` for n parameters.
    static func standardErrors(at x: [Double], _ f: ([Double]) -> Double) -> [Double] {
        let n = x.count, h = 1e-3
        var hessian = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        func at(_ deltas: [(Int, Double)]) -> Double {
            var y = x
            for (i, d) in deltas { y[i] += d }
            return f(y)
        }
        for i in 0..<n {
            for j in i..<n {
                let v = (at([(i, h), (j, h)]) - at([(i, h), (j, -h)]) - at([(i, -h), (j, h)]) + at([(i, -h), (j, -h)])) / (4 * h * h)
                hessian[i][j] = v
                hessian[j][i] = v
            }
        }
        guard let inverse = invert(hessian) else { return Array(repeating: .nan, count: n) }
        return (0..<n).map { inverse[$0][$0] > 0 ? inverse[$0][$0].squareRoot() : .nan }
    }

    /// Gauss–Jordan inverse of a small matrix; nil if singular.
    static func invert(_ m: [[Double]]) -> [[Double]]? {
        let n = m.count
        var a = m.enumerated().map { i, row in row + (0..<n).map { $0 == i ? 1.0 : 0 } }
        for c in 0..<n {
            guard let p = (c..<n).max(by: { abs(a[$0][c]) < abs(a[$1][c]) }), abs(a[p][c]) > 1e-12 else { return nil }
            a.swapAt(c, p)
            let pivot = a[c][c]
            a[c] = a[c].map { $0 / pivot }
            for r in 0..<n where r != c {
                let factor = a[r][c]
                a[r] = zip(a[r], a[c]).map { $0 - factor * $1 }
            }
        }
        return a.map { Array($0[n...]) }
    }
}
