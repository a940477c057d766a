import GSL

/// The province of domicile an Immuni upload carries (`province`, a two-letter sigla such as "RM").
///
/// ENSim has no 107-province table yet: the phone's region is drawn exactly as the analytics
/// profiles draw it (ISTAT weights, first draw of stream ("analytics.profile", phone)), so one
/// phone reports the same place to both services, and the region's capital stands for the
/// province. Re-point `code(phone:seed:)` when a province table exists.
public enum ImmuniProvince {
    /// Sigla of each region's capital, in `ItalianRegions.all` order.
    static let capitals = ["TO", "AO", "MI", "BZ", "TN", "VE", "TS", "GE", "BO", "FI", "PG",
                           "AN", "RM", "AQ", "CB", "NA", "BA", "PZ", "CZ", "PA", "CA"]

    static let regions = try! DiscreteDistribution(weights: ItalianRegions.all.map { Double($0.population) })

    /// The province of app phone `phone`.
    public static func code(phone: Int32, seed: UInt64) -> String {
        let stream = RandomStream(seed: seed, stream: "analytics.profile", index: UInt64(phone), generator: .taus2)
        return capitals[regions.sample(stream)]
    }

    /// A province for an uploader outside the simulated population, drawn from `rng`.
    static func code(drawnFrom rng: RandomStream) -> String { capitals[regions.sample(rng)] }
}
