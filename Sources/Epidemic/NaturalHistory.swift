import EventEngine
import GSL
import World

/// One infected person's course, drawn once from their own stream ("epidemic.history", person)
/// at infection, so it never depends on who infected them or on event order.
struct InfectionCourse {
    var infectedAt: SimTime
    var infectiousFrom: SimTime
    var recoveredAt: SimTime
    /// nil when asymptomatic.
    var symptomOnset: SimTime?
    /// Infectiousness relative to a symptomatic person.
    var relativeInfectiousness: Double
}

/// The natural history shared by everyone: infectiousness over time since infection is a gamma
/// density scaled to peak at 1 (OpenABM-Covid19's profile), the window of infectiousness its
/// central quantiles, symptoms after a gamma incubation.
struct NaturalHistory {
    let parameters: EpidemicParameters
    let profile: GammaProfile
    let incubation: GammaProfile
    let peakDensity: Double
    let windowStart: Double
    let windowEnd: Double

    init(_ p: EpidemicParameters) {
        parameters = p
        profile = GammaProfile(mean: p.infectiousnessMeanDays, sd: p.infectiousnessSDDays)
        incubation = GammaProfile(mean: p.incubationMeanDays, sd: p.incubationSDDays)
        peakDensity = profile.density(profile.mode > 0 ? profile.mode : 1e-6)
        windowStart = profile.quantile(EpidemicParameters.profileTail)
        windowEnd = profile.quantile(1 - EpidemicParameters.profileTail)
    }

    func course(infectedAt t: SimTime, age: AgeGroup, rng: RandomStream) -> InfectionCourse {
        let asymptomatic = rng.bernoulli(p: parameters.asymptomaticShareByAge[age.rawValue])
        let onsetDays = rng.gamma(shape: incubation.shape, scale: incubation.scale)
        let day = Double(SimDuration.day)
        return InfectionCourse(infectedAt: t, infectiousFrom: t + Int64(windowStart * day), recoveredAt: t + Int64(windowEnd * day),
                               symptomOnset: asymptomatic ? nil : t + Int64(onsetDays * day),
                               relativeInfectiousness: asymptomatic ? parameters.asymptomaticInfectiousness : 1)
    }

    /// Infectiousness at `days` since infection, 1 at the profile's peak.
    func infectiousness(daysSinceInfection days: Double) -> Double {
        days < windowStart || days > windowEnd ? 0 : profile.density(days) / peakDensity
    }
}
