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

@Suite struct ClosedFormWindowTests {
    let model = ChannelModel(.default)

    /// The limits are where the expected share of lost adverts is `lossShare` (8%) and, for
    /// windows of fewer than 12 adverts, `fewAdvertsLossShare` (2%).
    @Test(arguments: [(ClosedFormWindow.fullLimitAdverts, ClosedFormWindow.lossShare, 70.0...73.0),
                      (ClosedFormWindow.fullLimitAdverts - 1, ClosedFormWindow.fewAdvertsLossShare, 60.0...70.0)])
    func limitLosesTheDeclaredShareOfAdverts(adverts: Int, share: Double, range: ClosedRange<Double>) {
        let stream = RandomStream(seed: 21, stream: "lossless-limit", generator: .taus2)
        let sigma = model.parameters.fadingSigma, limit = model.closedForm.limit(adverts: adverts)
        let lost = (0..<200_000).map { _ in 1 - model.receptionProbability(attenuation: limit + stream.normal(sd: sigma)) }
        let ci = Statistics.meanConfidenceInterval(lost, confidence: 0.999)
        #expect(ci.lower <= share && share <= ci.upper)
        #expect(range.contains(limit))
    }

    /// The closed form and the draw per advert give the same (typical, minimum) bytes, by a
    /// two-sample chi-square test over (typical, typical − minimum): at the limit, where the
    /// approximation is weakest (for 12 adverts and more, and for fewer), halfway and below.
    /// Without the corrections the test fails at the limit; from about 10% loss it fails with them.
    @Test(arguments: [(0.0, 17), (0.0, 14), (0.0, 12), (-3.0, 17), (-6.0, 17), (-15.0, 20), (-30.0, 17), (0.0, 11), (0.0, 4)])
    func closedFormAgreesWithTheDrawPerAdvert(below: Double, adverts: Int) {
        let mean = model.closedForm.limit(adverts: adverts) + below
        let closed = RandomStream(seed: 22, stream: "closed", generator: .taus2)
        let drawn = RandomStream(seed: 23, stream: "drawn", generator: .taus2)
        var a: [Int: Int] = [:], b: [Int: Int] = [:]
        for _ in 0..<300_000 {
            if let w = ContactRadio.window(mean: mean, adverts: adverts, model: model, stream: closed) {
                #expect(w.minimum <= w.typical)
                a[Int(w.typical) * 256 + Int(w.typical) - Int(w.minimum), default: 0] += 1
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

    /// Windows above the limit, with more adverts than the tables hold, or with fewer than
    /// `minAdverts` (which would lose them all too often), draw per advert.
    @Test func windowsOutsideTheTablesDrawPerAdvert() {
        let mean = model.closedForm.limit - 10
        let stream = RandomStream(seed: 25, stream: "w", generator: .taus2)
        #expect(model.closedForm.window(mean: mean, adverts: 0, stream: stream) == nil)
        #expect(model.closedForm.window(mean: model.closedForm.limit + 0.01, adverts: 17, stream: stream) == nil)
        #expect(model.closedForm.window(mean: model.closedForm.fewAdvertsLimit + 0.01, adverts: 11, stream: stream) == nil)
        #expect(model.closedForm.window(mean: model.closedForm.limit - 0.01, adverts: 12, stream: stream) != nil)
        #expect(model.closedForm.window(mean: mean, adverts: ClosedFormWindow.maxAdverts + 1, stream: stream) == nil)
        #expect(model.closedForm.window(mean: mean, adverts: ClosedFormWindow.minAdverts - 1, stream: stream) == nil)
        #expect(model.closedForm.window(mean: mean, adverts: ClosedFormWindow.minAdverts, stream: stream) != nil)
        let a = RandomStream(seed: 24, stream: "w", generator: .taus2), b = RandomStream(seed: 24, stream: "w", generator: .taus2)
        for _ in 0..<100 {
            let w = ContactRadio.window(mean: mean, adverts: 60, model: model, stream: a)
            let p = ContactRadio.perAdvertWindow(mean: mean, adverts: 60, model: model, stream: b)
            #expect(w?.typical == p?.typical && w?.minimum == p?.minimum)
        }
    }

    /// Channel models with the same reception parameters share a window built once per process;
    /// it draws exactly as a window built afresh, and other parameters get their own.
    @Test func sharedWindowDrawsAsAFreshOne() {
        let p = model.parameters
        let fresh = ClosedFormWindow(fadingSigma: p.fadingSigma, receptionMidpoint: p.receptionMidpoint,
                                     receptionScale: p.receptionScale, mostAdverts: Int(p.scanWindowSeconds * 1000 / p.advertIntervalMinMs))
        let shared = ChannelModel(.default).closedForm
        let a = RandomStream(seed: 26, stream: "w", generator: .taus2), b = RandomStream(seed: 26, stream: "w", generator: .taus2)
        var same = 0
        for i in 0..<2_000 {
            let mean = fresh.limit - Double(i % 400) / 10, adverts = 4 + i % 17
            let x = fresh.window(mean: mean, adverts: adverts, stream: a), y = shared.window(mean: mean, adverts: adverts, stream: b)
            if x?.typical == y?.typical && x?.minimum == y?.minimum { same += 1 }
        }
        #expect(same == 2_000)
        var wider = p
        wider.fadingSigma += 1
        #expect(ChannelModel(wider).closedForm.limit < shared.limit)
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

@Suite struct ClosedFormCorrectionTests {
    let model = ChannelModel(.default)

    /// The corrections against a draw per advert's moments (400,000 windows of 17 adverts): at
    /// the limit the received adverts' mean is wider than σ/√n and their minimum higher than
    /// all adverts'; far below it both vanish.
    @Test func correctionsMatchTheReceivedAdvertsMoments() {
        let p = model.parameters, sigma = p.fadingSigma, n = 17
        let limit = model.closedForm.limit
        let stream = RandomStream(seed: 26, stream: "moments", generator: .taus2)
        var typical = RunningStatistics(), shift = RunningStatistics()
        for _ in 0..<400_000 {
            var sum = 0.0, count = 0, minimum = Double.infinity, allMinimum = Double.infinity
            for _ in 0..<n {
                let a = limit + stream.normal(sd: sigma)
                allMinimum = min(allMinimum, a)
                if stream.uniform() < model.receptionProbability(attenuation: a) {
                    (sum, count, minimum) = (sum + a, count + 1, min(minimum, a))
                }
            }
            guard count > 0 else { continue }
            typical.add(sum / Double(count))
            shift.add(minimum - allMinimum)
        }
        let c = model.closedForm.corrections(mean: limit, adverts: n)
        #expect(abs(typical.mean - (limit + c.tilt)) < 0.005, "tilt \(c.tilt) against \(typical.mean - limit)")
        #expect(abs(typical.variance.squareRoot() - c.sd) < 0.005, "sd \(c.sd) against \(typical.variance.squareRoot())")
        #expect(c.sd > sigma / Double(n).squareRoot() * 1.02)
        #expect(abs(shift.mean - c.shift) < 0.004 && c.shift > 0.02, "shift \(c.shift) against \(shift.mean)")
        let far = model.closedForm.corrections(mean: limit - 39, adverts: n)
        #expect(abs(far.tilt) < 1e-4 && abs(far.sd - sigma / Double(n).squareRoot()) < 1e-4 && abs(far.shift) < 1e-4)
    }
}
