import Detection
import EventEngine
import GSL
import HealthBackend
import SimulationCore
import World

/// Standalone analytics for `ensim run` (`analytics.enabled: true`, `detections: synthetic`):
/// phones are the run's app phones (their OS from the population), with region, permissions,
/// genuineness and install time drawn per phone; each day's availability (phone off, app
/// force-closed, uninstalled, Bluetooth off) is the main simulation's, recomputed from the
/// same per-(phone, day) streams.
public enum AnalyticsRun {
    /// Profiles of the app phones, each drawn from its own stream. The province is drawn within
    /// the region, weighted by population, from a second stream, so the other draws (and every
    /// regional result) are those of a run without provinces.
    public static func profiles(phoneOS: [OperatingSystem], parameters p: AnalyticsParameters, seed: UInt64, start: SimTime) -> [AnalyticsPhoneProfile] {
        let regions = try! DiscreteDistribution(weights: p.regionWeights)
        let italian = p.regionWeights.count == ItalianRegions.all.count
        let stream = RandomStream(seed: seed, stream: "analytics.profile", generator: .taus2)
        let provinceStream = RandomStream(seed: seed, stream: "analytics.province", generator: .taus2)
        return phoneOS.enumerated().map { phone, os in
            stream.reseed(StreamKey(seed: seed, stream: "analytics.profile", index: UInt64(phone)))
            let region = regions.sample(stream)
            let (u1, u2, u3, u4) = (stream.uniform(), stream.uniform(), stream.uniform(), stream.uniform())
            let install = start + Int64(u4 * Double(Int64(p.installSpreadDays) * SimDuration.day))
            var province = -1
            if italian { province = ItalianProvinces.province(ofPhone: phone, inRegion: region, seed: seed, stream: provinceStream) }
            return AnalyticsPhoneProfile(os: os, region: region, province: province, installTime: install, genuine: u1 < p.genuineShare,
                                         exposurePermission: u2 < p.exposurePermissionShare, notificationPermission: u3 < p.notificationPermissionShare)
        }
    }

    /// The synthetic analytics (and its p_OWOE sweep) over the whole period, on its own: the
    /// phones' daily states are drawn here from the same per-(phone, day) streams as a run's.
    static func synthetic(parameters: AnalyticsParameters, seed: UInt64, start: SimTime, days: Int, phoneOS: [OperatingSystem],
                          availability: AvailabilityParameters, threads: Int) -> SyntheticAnalytics {
        let analytics = SyntheticAnalytics(RunContext(seed: seed, start: start, days: days, threads: threads), parameters: parameters,
                                           phoneOS: phoneOS)
        let states = PhoneAvailability(phones: phoneOS.count, parameters: availability, seed: seed)
        for day in 0..<days {
            states.roll(dayIndex: day)
            analytics.day(SimulatedDay(index: day, start: start), availability: states)
        }
        return analytics
    }

    /// Runs the model over the whole period with synthetic detections (no sweep).
    public static func run(parameters: AnalyticsParameters, seed: UInt64, start: SimTime, days: Int, phoneOS: [OperatingSystem],
                           availability: AvailabilityParameters) -> AnalyticsModel {
        var p = parameters
        p.sweepPWithoutExposure = []
        return synthetic(parameters: p, seed: seed, start: start, days: days, phoneOS: phoneOS, availability: availability, threads: 1).model
    }
}
