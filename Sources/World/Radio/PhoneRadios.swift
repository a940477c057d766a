import GSL

/// Each app phone's device model, and each model's residual calibration error for this run.
package final class PhoneRadios: Sendable {
    package let models: [DeviceModel]
    package let modelOf: [UInt8]
    /// Residual error of each model after GAEN calibration (dB), drawn once per run.
    package let calibrationError: [Double]

    package init(phoneOS: [OperatingSystem], parameters: RadioParameters, seed: UInt64) {
        let models = parameters.deviceModels
        self.models = models
        let stream = RandomStream(seed: seed, stream: "device-model", generator: .taus2)
        var tables: [OperatingSystem: (DiscreteDistribution, [Int])] = [:]
        for os in OperatingSystem.allCases {
            let indices = models.indices.filter { models[$0].os == os }
            if !indices.isEmpty { tables[os] = (try! DiscreteDistribution(weights: indices.map { models[$0].share }), indices) }
        }
        modelOf = phoneOS.enumerated().map { phone, os in
            stream.reseed(StreamKey(seed: seed, stream: "device-model", index: UInt64(phone)))
            guard let (table, indices) = tables[os] else { return 0 }
            return UInt8(indices[table.sample(stream)])
        }
        let errors = RandomStream(seed: seed, stream: "calibration-error")
        calibrationError = models.map { _ in errors.normal(sd: parameters.calibrationErrorSigma) }
    }

    package func txPower(_ phone: Int) -> Int8 { models[Int(modelOf[phone])].txPowerDBm }

    package func isAndroid(_ phone: Int) -> Bool { models[Int(modelOf[phone])].os == .android }

    package func error(_ phone: Int) -> Double { calibrationError[Int(modelOf[phone])] }
}
