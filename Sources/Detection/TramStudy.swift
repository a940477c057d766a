import CSVInput
import EventEngine
import Foundation
import GSL
import World

/// Leith & Farrell's Dublin tram experiment (Trinity College Dublin, June 2020): handsets at
/// measured seat distances in a metal light-rail carriage for about 15 minutes, the GAEN
/// attenuation durations each pair recorded, and the detection rules of the Swiss, German and
/// Italian apps of the time applied to them. The study applies the same rules to the measured
/// durations and to ENSim's channel at the same distances, so the two can be compared.
public struct TramStudy: Sendable {
    /// One pair of handsets at one distance: minutes of attenuation in each band (`bands`).
    public struct Measurement: Sendable, Equatable {
        public var handsets: (Int, Int)
        public var metres: Double
        public var minutes: [Double]

        public static func == (a: Measurement, b: Measurement) -> Bool {
            a.handsets == b.handsets && a.metres == b.metres && a.minutes == b.minutes
        }
    }

    /// The dataset's attenuation bands (dB): 2 dB wide from 48 to 80, then 80–85, 85–90, 90–100.
    public static let bands: [ClosedRange<Int>] = (0..<16).map { (48 + 2 * $0)...(50 + 2 * $0) } + [80...85, 85...90, 90...100]

    public var measurements: [Measurement]
    /// Distance up to which a pair is a close contact (ECDC's and Italy's 2 m).
    public var closeMetres = 2.0
    /// How long ENSim's phones stay at a distance where the pair recorded nothing (the
    /// experiment's ~15 minutes); elsewhere as long as the pair recorded attenuations, so that
    /// both sides of the comparison have the same exposure (rules turn on 15 minutes).
    public var minutes = 15

    public init(measurements: [Measurement]) { self.measurements = measurements }

    /// The most minutes a pair may have recorded in one band (a week).
    public static let maximumMinutes = 10_080.0

    /// Reads `handset_a,handset_b,metres,db_48_50,…,db_90_100` (Scenarios/data/dublin-tram/).
    public static func load(csv path: String) throws -> [Measurement] {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw StudyError("\(path): cannot read (\(error.localizedDescription))")
        }
        let rows: [CSVInput.Row]
        do { rows = try CSVInput.rows(text) } catch { throw StudyError("\(path):\(error.line): \(error.message)") }
        guard let header = rows.first, header.cells.count == 3 + bands.count, header.cells.prefix(3) == ["handset_a", "handset_b", "metres"] else {
            throw StudyError("\(path):1: expected the columns handset_a,handset_b,metres and \(bands.count) attenuation bands")
        }
        return try rows.dropFirst().map { row in
            let numbers = row.cells.map { Double($0) }
            // Minutes are bounded by a week: they become whole seconds, summed over bands and pairs.
            guard row.cells.count == header.cells.count, numbers.allSatisfy({ $0.map { $0.isFinite && $0 >= 0 } ?? false }),
                  let a = Int(row.cells[0]), let b = Int(row.cells[1]), numbers[2]! > 0,
                  numbers[3...].allSatisfy({ $0! <= maximumMinutes }) else {
                throw StudyError("\(path):\(row.line): expected two handset numbers, a distance > 0 and \(bands.count) minute counts "
                                 + "from 0 to \(Int(maximumMinutes))")
            }
            return Measurement(handsets: (a, b), metres: numbers[2]!, minutes: numbers[3...].map { $0! })
        }
    }

    /// A measured pair as scan instances: each band's minutes at the band's middle attenuation.
    public static func measuredScans(_ m: Measurement) -> [ScoredScan] {
        zip(bands, m.minutes).compactMap { band, minutes in
            minutes > 0 ? ScoredScan(typicalAttenuation: (band.lowerBound + band.upperBound) / 2, seconds: Int((minutes * 60).rounded())) : nil
        }
    }

    /// The pairs that recorded anything, as the channel fit reads them: distance and
    /// minute-weighted mean attenuation (each band at its middle).
    public static func fitPairs(_ measurements: [Measurement]) -> [TransportChannelFit.Pair] {
        measurements.compactMap { m in
            let scans = measuredScans(m)
            let seconds = scans.reduce(0) { $0 + $1.seconds }
            guard seconds > 0 else { return nil }
            let mean = Double(scans.reduce(0) { $0 + $1.typicalAttenuation * $1.seconds }) / Double(seconds)
            return TransportChannelFit.Pair(metres: m.metres, meanAttenuation: mean)
        }
    }

    /// One simulated contact at the pair's distance in the transport layer: what the receiver's
    /// scans hear of the sender, from stream ("tram", pair · 2¹⁶ + replicate).
    public func simulatedScans(_ index: Int, replicate: Int, radio: RadioParameters, seed: UInt64) -> [ScoredScan] {
        simulatedScans(index, replicate: replicate, model: ChannelModel(radio), placements: try! DiscreteDistribution(weights: radio.placementShares),
                       seed: seed)
    }

    /// As above with the channel built once for many contacts.
    public func simulatedScans(_ index: Int, replicate: Int, model: ChannelModel, placements: DiscreteDistribution, seed: UInt64) -> [ScoredScan] {
        let radio = model.parameters
        let stream = RandomStream(seed: seed, stream: "tram", index: UInt64(index) << 16 | UInt64(replicate))
        let calibration = stream.normal(sd: radio.calibrationErrorSigma) + stream.normal(sd: radio.calibrationErrorSigma)
        let loss = model.contactLoss(layer: .transport, calibrationError: calibration, placements: placements, stream: stream)
        let scans = ScanSchedule(seed: seed, phone: index, dayIndex: replicate, midnight: 0, period: radio.scanPeriodSeconds,
                                 stream: RandomStream(seed: seed, stream: "tram-scans"))
        var heard: [HeardScan] = []
        let recorded = measurements[index].minutes.reduce(0, +)
        let seconds = recorded > 0 ? Int32((recorded * 60).rounded()) : Int32(minutes * 60)
        let segment = [ContactSegment(seconds: seconds, metres: Float(measurements[index].metres))]
        segment.withUnsafeBufferPointer {
            ContactRadio.hear(segments: $0, start: 0, layer: .transport, scans: scans, model: model, extraLoss: loss, stream: stream,
                              into: &heard)
        }
        return heard.map { ScoredScan(typicalAttenuation: Int($0.typicalAttenuation), seconds: Int($0.secondsSinceLastScan)) }
    }

    /// One rule applied to close and to far pairs.
    public struct Outcome: Sendable {
        public var rule: String
        /// "measured" (the tram's durations) or "ensim" (the channel model at the same distances).
        public var source: String
        public var closeNotified: Int
        public var close: Int
        public var farNotified: Int
        public var far: Int

        /// Share of close pairs notified (recall), with its exact 95% interval.
        public var truePositiveRate: (estimate: Double, interval: ConfidenceInterval) {
            (Double(closeNotified) / Double(max(1, close)), Proportion.clopperPearson(successes: closeNotified, trials: close))
        }

        /// Share of far pairs notified, with its exact 95% interval.
        public var falsePositiveRate: (estimate: Double, interval: ConfidenceInterval) {
            (Double(farNotified) / Double(max(1, far)), Proportion.clopperPearson(successes: farNotified, trials: far))
        }
    }

    /// Every rule on the measured durations and on `replicates` simulated contacts per pair.
    public func run(rules: [(name: String, model: RiskModel)], replicates: Int, radio: RadioParameters, seed: UInt64) -> [Outcome] {
        let measured = measurements.map(Self.measuredScans)
        let model = ChannelModel(radio), placements = try! DiscreteDistribution(weights: radio.placementShares)
        let simulated = measurements.indices.map { i in
            (0..<replicates).map { simulatedScans(i, replicate: $0, model: model, placements: placements, seed: seed) }
        }
        var outcomes: [Outcome] = []
        for rule in rules {
            func notifies(_ scans: [ScoredScan]) -> Bool {
                !scans.isEmpty && rule.model.evaluateDay([KeyExposure(scans: scans, daysSinceExposure: 0)]).notify
            }
            var m = Outcome(rule: rule.name, source: "measured", closeNotified: 0, close: 0, farNotified: 0, far: 0)
            var e = Outcome(rule: rule.name, source: "ensim", closeNotified: 0, close: 0, farNotified: 0, far: 0)
            for (i, pair) in measurements.enumerated() {
                let isClose = pair.metres <= closeMetres
                let hits = simulated[i].filter(notifies).count
                if isClose {
                    m.close += 1; m.closeNotified += notifies(measured[i]) ? 1 : 0
                    e.close += replicates; e.closeNotified += hits
                } else {
                    m.far += 1; m.farNotified += notifies(measured[i]) ? 1 : 0
                    e.far += replicates; e.farNotified += hits
                }
            }
            outcomes += [m, e]
        }
        return outcomes
    }
}

/// A study's input cannot be used; the description names the file and line.
public struct StudyError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
