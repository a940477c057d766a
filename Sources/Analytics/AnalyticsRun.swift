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

    /// Runs the model over the whole period with synthetic detections.
    public static func run(parameters: AnalyticsParameters, seed: UInt64, start: SimTime, days: Int, phoneOS: [OperatingSystem],
                           availability: AvailabilityParameters) -> AnalyticsModel {
        let profiles = profiles(phoneOS: phoneOS, parameters: parameters, seed: seed, start: start)
        let model = AnalyticsModel(parameters: parameters, seed: seed, start: start, days: days, phones: profiles)
        let states = PhoneAvailability(phones: phoneOS.count, parameters: availability, seed: seed)
        let source = SyntheticDetections(parameters: parameters, seed: seed)
        for day in 0..<days {
            states.roll(dayIndex: day)
            source.run(day: start + Int64(day) * SimDuration.day, model: model) { phone in
                PhoneDayState(runsDetections: !states.uninstalled[phone] && !states.phoneOff[phone] && !states.forceClosed[phone],
                              bluetoothOn: !states.bluetoothOff[phone])
            }
        }
        return model
    }
}
