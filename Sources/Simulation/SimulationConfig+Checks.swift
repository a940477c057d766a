import EventEngine
import Foundation

/// What the stages take for granted about their parameters. The scenario layer refuses such input
/// with a line naming the key; this is the last guard for configurations built in code, so that no
/// `try!` or trap inside a stage is reachable by input.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
}

extension SimulationConfig {
    /// Earliest and latest first days the model supports: keys before the start stay after 1970,
    /// and P6's 32-bit Unix seconds (to 2106-02-07) outlast the longest run.
    /// Days one run may simulate (ten years).
    public static let supportedDays = 1...3650

    public static let supportedStartDates = CivilDate(year: 2000, month: 1, day: 1)...CivilDate(year: 2095, month: 12, day: 31)

    public func check() throws(ConfigurationError) {
        guard Self.supportedDays.contains(days), population.size >= 1 else {
            let (first, last) = (Self.supportedDays.lowerBound, Self.supportedDays.upperBound)
            throw ConfigurationError(description: "days must be \(first)…\(last) and population.size at least 1")
        }
        guard Self.supportedStartDates.contains(CivilDate(containing: start)) else {
            let (first, last) = (Self.supportedStartDates.lowerBound, Self.supportedStartDates.upperBound)
            throw ConfigurationError(description: "start must be from \(first) to \(last)")
        }
        let distributions: [(String, [Double])] = [
            ("population.age_shares", population.ageShares), ("contacts.household_size_shares", contacts.householdSizeShares),
            ("radio.placement_shares", radio.placementShares), ("analytics.phones.region_population", analytics.regionWeights),
        ]
        for (key, weights) in distributions where weights.isEmpty || !weights.allSatisfy({ $0.isFinite && $0 >= 0 }) || !weights.contains(where: { $0 > 0 }) {
            throw ConfigurationError(description: "\(key) must be finite non-negative weights, not all zero")
        }
        let b = backend
        guard (0...1).contains(b.uploadFailureShare), (0...1).contains(b.cwaTokenLossShare), b.uploadMaxAttempts >= 1,
              b.uploadRetryDelayMinutes.mean.isFinite, b.uploadRetryDelayMinutes.mean >= 0, b.uploadRetryDelayMinutes.sd >= 0 else {
            throw ConfigurationError(description: "backend.upload_failure: shares must be 0…1, max_attempts at least 1, delays non-negative")
        }
            if epidemic.enabled { try checkEpidemic() }
    }

    private func checkEpidemic() throws(ConfigurationError) {
        let e = epidemic
        let shares = [e.symptomaticTestProbability, e.quarantineCompliance, e.notifiedTestProbability, e.isolationCompliance,
                      e.asymptomaticInfectiousness] + e.asymptomaticShareByAge
        let positive = [e.infectiousnessMeanDays, e.infectiousnessSDDays, e.incubationMeanDays, e.incubationSDDays]
        let nonNegative = [e.importsPerDay, e.hazardPerMinute, e.onsetToTestDays, e.resultDelayDays, e.notificationToTestDays] + e.layerFactors
        guard e.asymptomaticShareByAge.count == 3, e.layerFactors.count == 5, (0...population.size).contains(e.initialInfections),
              e.quarantineDays >= 0, e.isolationDays >= 0, shares.allSatisfy({ (0...1).contains($0) }),
              positive.allSatisfy({ $0.isFinite && $0 > 0 }), nonNegative.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw ConfigurationError(description: "epidemic: shares must be 0…1, durations and rates finite and non-negative, "
                                     + "3 age groups, 5 layer factors, initial_infections at most population.size")
        }
    }
}
