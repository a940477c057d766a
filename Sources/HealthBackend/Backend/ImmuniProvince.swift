import GSL

/// The province of domicile an Immuni upload carries (`province`, a two-letter sigla such as "RM").
///
/// Drawn exactly as the analytics profiles draw it (the area by ISTAT weights as the first draw
/// of stream ("analytics.profile", phone), then the province within it), so one phone reports
/// the same province to both services. (A scenario that overrides `analytics.region_weights`
/// changes the analytics draw only; uploads keep ISTAT's weights.)
public enum ImmuniProvince {
    package static let regions = try! DiscreteDistribution(weights: ItalianRegions.all.map { Double($0.population) })

    /// The province of app phone `phone`.
    public static func code(phone: Int32, seed: UInt64) -> String {
        let stream = RandomStream(seed: seed, stream: "analytics.profile", index: UInt64(phone), generator: .taus2)
        let region = regions.sample(stream)
        return ItalianProvinces.all[ItalianProvinces.province(ofPhone: Int(phone), inRegion: region, seed: seed)].code
    }

    /// A province for an uploader outside the simulated population, drawn from `rng` by population.
    package static func code(drawnFrom rng: RandomStream) -> String {
        let region = regions.sample(rng)
        return ItalianProvinces.all[ItalianProvinces.byRegion[region][ItalianProvinces.withinRegion[region].sample(rng)]].code
    }
}
