import GSL

/// The simulated attenuation distribution against distance, for the docs' calibration table:
/// each sample is one scan window of a fresh contact (new placements, body, shadowing).
public struct AttenuationCalibration: Sendable {
    public struct Row: Sendable {
        public let metres: Double
        public let windows: Int
        public let heardShare: Double
        public let mean: Double
        public let sd: Double
        public let p10: Double
        public let p50: Double
        public let p90: Double
    }

    public static let distances: [Double] = [0.5, 1, 1.5, 2, 3, 4, 5, 7, 10]

    public static func table(parameters: RadioParameters, layer: ContactLayer, samples: Int, seed: UInt64) -> [Row] {
        let model = ChannelModel(parameters)
        let placements = try! DiscreteDistribution(weights: parameters.placementShares)
        let stream = RandomStream(seed: seed, stream: "calibration", index: UInt64(layer.rawValue))
        let calibration = RandomStream(seed: seed, stream: "calibration-devices")
        return distances.map { metres in
            var typical: [Double] = []
            for _ in 0..<samples {
                let error = calibration.normal(sd: parameters.calibrationErrorSigma) + calibration.normal(sd: parameters.calibrationErrorSigma)
                let loss = model.contactLoss(layer: layer, calibrationError: error, placements: placements, stream: stream)
                let mean = model.meanAttenuation(metres: Float(metres), layer: layer, extraLoss: loss)
                let adverts = Int(parameters.scanWindowSeconds * 1000 / stream.uniform(parameters.advertIntervalMs.lowerBound, parameters.advertIntervalMs.upperBound))
                if let w = ContactRadio.window(mean: mean, adverts: adverts, model: model, stream: stream) {
                    typical.append(Double(w.typical))
                }
            }
            guard typical.count >= 2 else {
                return Row(metres: metres, windows: samples, heardShare: Double(typical.count) / Double(samples), mean: .nan, sd: .nan, p10: .nan, p50: .nan, p90: .nan)
            }
            let q = Statistics.quantiles(typical, [0.1, 0.5, 0.9])
            return Row(metres: metres, windows: samples, heardShare: Double(typical.count) / Double(samples),
                       mean: Statistics.mean(typical), sd: Statistics.standardDeviation(typical), p10: q[0], p50: q[1], p90: q[2])
        }
    }
}
