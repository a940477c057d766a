import Foundation
import GSL
import Testing
@testable import World

@Suite struct MaxDeviationTests {
    /// E[max of n standard normals] and its second moment, by Simpson's rule on its density n·φ·Φⁿ⁻¹.
    private func sampleMaximumMoments(_ n: Int) -> (mean: Double, square: Double) {
        let panels = 4000, h = 24.0 / Double(panels)
        var m1 = 0.0, m2 = 0.0
        for i in 0...panels {
            let x = -12 + Double(i) * h
            let weight = i == 0 || i == panels ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0)
            let density = Double(n) * exp(-x * x / 2) / (2 * Double.pi).squareRoot() * pow(erfc(-x / 2.0.squareRoot()) / 2, Double(n - 1))
            m1 += weight * x * density
            m2 += weight * x * x * density
        }
        return (m1 * h / 3, m2 * h / 3)
    }

    /// max − mean has the maximum's mean (the sample mean's is 0) and its variance less 1/n (the
    /// maximum's covariance with the mean is 1/n): two checks of the recursion's table by an
    /// independent integral.
    @Test(arguments: [2, 3, 5, 10, 17, 20, 40])
    func tableHasTheMomentsOfTheSampleMaximum(n: Int) {
        let table = MaxDeviation.tables(upTo: 40)[n]
        var mean = 0.0, square = 0.0
        for i in 0..<(table.cdf.count - 1) {
            // ∫(1 − F) and ∫2x(1 − F), trapezoid on the grid.
            let x0 = Double(i) * MaxDeviation.step, x1 = x0 + MaxDeviation.step
            mean += (2 - table.cdf[i] - table.cdf[i + 1]) / 2 * MaxDeviation.step
            square += (2 * x0 * (1 - table.cdf[i]) + 2 * x1 * (1 - table.cdf[i + 1])) / 2 * MaxDeviation.step
        }
        let exact = sampleMaximumMoments(n)
        let variance = exact.square - exact.mean * exact.mean - 1 / Double(n)
        #expect(abs(mean - exact.mean) < 1e-5, "n \(n): mean \(mean) against \(exact.mean)")
        #expect(abs(square - mean * mean - variance) < 2e-5, "n \(n): variance \(square - mean * mean) against \(variance)")
    }

    @Test func quantileInvertsTheTable() {
        let table = MaxDeviation.tables(upTo: 17)[17]
        var last = -1.0
        for k in 0..<1000 {
            let u = Double(k) / 1000 + 0.0004
            let x = table.quantile(u)
            #expect(x > last)
            last = x
            let i = Int(x / MaxDeviation.step), f = x / MaxDeviation.step - Double(i)
            #expect(abs(table.cdf[i] + (table.cdf[i + 1] - table.cdf[i]) * f - u) < 1e-12)
        }
    }
}

@Suite struct LosslessWindowTests {
    let model = ChannelModel(.default)

    /// The limit is where the expected share of lost adverts is `lossShare` (2%).
    @Test func limitLosesTheDeclaredShareOfAdverts() {
        let stream = RandomStream(seed: 21, stream: "lossless-limit", generator: .taus2)
        let sigma = model.parameters.fadingSigma
        let lost = (0..<200_000).map { _ in 1 - model.receptionProbability(attenuation: model.lossless.limit + stream.normal(sd: sigma)) }
        let ci = Statistics.meanConfidenceInterval(lost, confidence: 0.999)
        #expect(ci.lower <= LosslessWindow.lossShare && LosslessWindow.lossShare <= ci.upper)
        #expect(model.lossless.limit > 60 && model.lossless.limit < 70)
    }

    /// The closed form and the draw per advert give the same (typical, minimum) bytes, by a
    /// two-sample chi-square test over (typical, typical − minimum): at the limit, where the
    /// approximation is weakest, and below it. Without the tilt the test fails at the limit.
    @Test(arguments: [(0.0, 17), (0.0, 14), (-8.0, 20), (-25.0, 17)])
    func closedFormAgreesWithTheDrawPerAdvert(below: Double, adverts: Int) {
        let mean = model.lossless.limit + below
        let closed = RandomStream(seed: 22, stream: "closed", generator: .taus2)
        let drawn = RandomStream(seed: 23, stream: "drawn", generator: .taus2)
        var a: [Int: Int] = [:], b: [Int: Int] = [:]
        for _ in 0..<300_000 {
            if let w = ContactRadio.window(mean: mean, adverts: adverts, model: model, stream: closed) {
                a[Int(w.typical) * 256 + Int(w.typical - w.minimum), default: 0] += 1
            }
            if let w = ContactRadio.perAdvertWindow(mean: mean, adverts: adverts, model: model, stream: drawn) {
                b[Int(w.typical) * 256 + Int(w.typical - w.minimum), default: 0] += 1
            }
        }
        // Bins with fewer than 20 windows in the two samples together go into one.
        var countsA = [0], countsB = [0]
        for key in Set(a.keys).union(b.keys).sorted() {
            let x = a[key, default: 0], y = b[key, default: 0]
            if x + y < 20 { countsA[0] += x; countsB[0] += y } else { countsA.append(x); countsB.append(y) }
        }
        let test = GoodnessOfFit.homogeneity(countsA, countsB)
        #expect(test.pValue > 0.001, "\(below) dB below the limit, \(adverts) adverts: X² \(test.statistic) over \(countsA.count) bins")
    }

    /// Windows above the limit, with more adverts than the tables hold, or with none, draw per advert.
    @Test func windowsOutsideTheTablesDrawPerAdvert() {
        let mean = model.lossless.limit - 10
        let stream = RandomStream(seed: 25, stream: "w", generator: .taus2)
        #expect(model.lossless.window(mean: mean, adverts: 0, stream: stream) == nil)
        #expect(model.lossless.window(mean: model.lossless.limit + 0.01, adverts: 17, stream: stream) == nil)
        #expect(model.lossless.window(mean: mean, adverts: LosslessWindow.maxAdverts + 1, stream: stream) == nil)
        let one = model.lossless.window(mean: mean, adverts: 1, stream: stream)
        #expect(one != nil && one?.typical == one?.minimum)
        let a = RandomStream(seed: 24, stream: "w", generator: .taus2), b = RandomStream(seed: 24, stream: "w", generator: .taus2)
        for _ in 0..<100 {
            let w = ContactRadio.window(mean: mean, adverts: 60, model: model, stream: a)
            let p = ContactRadio.perAdvertWindow(mean: mean, adverts: 60, model: model, stream: b)
            #expect(w?.typical == p?.typical && w?.minimum == p?.minimum)
        }
    }
}

@Suite struct AttenuationByteTests {
    /// The byte is the clamped `rounded()` for every value, the halves, their neighbours, NaN and the ends.
    @Test func byteIsTheClampedRoundedValue() {
        func reference(_ x: Double) -> UInt8 { UInt8(max(0, min(255, x.rounded()))) }
        var values: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, 255, 254.5, 255.5, 256, -1, 0.49999999999999994, 1e-300]
        for k in -20...520 {
            let half = Double(k) / 2
            values += [half, half.nextUp, half.nextDown]
        }
        let stream = RandomStream(seed: 31, stream: "byte", generator: .taus2)
        values += (0..<100_000).map { _ in stream.uniform(-10, 270) }
        for x in values { #expect(ChannelModel.byte(x) == reference(x), "\(x)") }
    }
}
