import EventEngine
import Simulation

extension SimulationConfig {
    /// Builds the run configuration from a validated, resolved scenario.
    public init(scenario v: ScenarioValue, threads: Int) {
        func int(_ path: String) -> Int { Int(v.at(path)!.intValue!) }
        func number(_ path: String) -> Double { v.at(path)!.doubleValue! }
        self.init(
            name: v.at("name")!.textValue!,
            seed: UInt64(v.at("seed")!.intValue!),
            start: CivilCalendar.parseISODateToTime(v.at("start")!.textValue!)!,
            days: int("days"),
            population: PopulationParameters(
                size: int("population.size"),
                ageShares: ["children", "adults", "seniors"].map { number("population.age_shares." + $0) },
                appAdoption: number("population.app_adoption"),
                adoptionByAge: v.at("population.adoption_model")?.textValue == "by_age"
                    ? ["children", "adults", "seniors"].map { number("population.app_adoption_by_age." + $0) } : nil,
                iOSShare: number("population.ios_share")),
            availability: Self.availability(v),
            contacts: Self.contacts(v),
            radio: Self.radio(v),
            health: Self.health(v),
            backend: Self.backend(v, exports: v.at("outputs.exports")!.boolValue!),
            distribution: Self.distribution(v),
            detection: DetectionParameters(scenario: v),
            analytics: AnalyticsParameters(scenario: v),
            p6: P6RunParameters(scenario: v),
            writeHourly: v.at("outputs.hourly")!.boolValue!,
            threads: threads
        )
    }

    static func radio(_ v: ScenarioValue) -> RadioParameters {
        var r = RadioParameters()
        func number(_ key: String) -> Double { v.at("radio." + key)!.doubleValue! }
        let layers = ContactLayer.allCases.map(\.name)
        r.rpiRotationMinMinutes = Int(v.at("radio.rpi_rotation_min_minutes")!.intValue!)
        r.rpiRotationMaxMinutes = Int(v.at("radio.rpi_rotation_max_minutes")!.intValue!)
        r.advertIntervalMs = number("advert_interval_min_ms")...number("advert_interval_max_ms")
        r.scanWindowSeconds = number("scan_window_s")
        r.scanPeriodSeconds = Int(v.at("radio.scan_period_s")!.intValue!)
        r.attenuationAt1m = number("attenuation_at_1m_db")
        r.pathLossExponent = layers.map { number("path_loss_exponent." + $0) }
        r.shadowingSigma = layers.map { number("shadowing_sigma_db." + $0) }
        r.fadingSigma = number("fading_sigma_db")
        r.placementShares = Placement.allCases.map { number("placement_shares." + $0.name) }
        r.placementLoss = Placement.allCases.map { number("placement_loss_db." + $0.name) }
        r.deviceModels = r.deviceModels.map { model in
            var m = model
            if m.os == .android { m.share = number("android_model_shares." + m.key) }
            return m
        }
        r.bodyBlockProbability = number("body_block_probability")
        r.bodyBlockLoss = number("body_block_loss_db")
        r.calibrationErrorSigma = number("calibration_error_sigma_db")
        r.receptionMidpoint = number("reception_midpoint_db")
        r.receptionScale = number("reception_scale_db")
        return r
    }

    static func availability(_ v: ScenarioValue) -> AvailabilityParameters {
        var a = AvailabilityParameters()
        func number(_ key: String) -> Double { v.at("population.availability." + key)!.doubleValue! }
        a.bluetoothOff = number("bluetooth_off")
        a.phoneOff = number("phone_off")
        a.appForceClosed = number("app_force_closed")
        a.uninstallPerDay = number("uninstall_per_day")
        return a
    }

    static func contacts(_ v: ScenarioValue) -> ContactParameters {
        var c = ContactParameters()
        func number(_ key: String) -> Double { v.at("contacts." + key)!.doubleValue! }
        c.householdSizeShares = ["one", "two", "three", "four", "five_plus"].map { number("household_size_shares." + $0) }
        c.householdMinutesMean = number("household_minutes_mean")
        c.householdMetresMedian = number("household_metres_median")
        c.employedShare = number("employed_share")
        c.workplaceSizeMean = number("workplace_size_mean")
        c.workplaceContactsMean = number("workplace_contacts_mean")
        c.workplaceMinutesMean = number("workplace_minutes_mean")
        c.workplaceMetresMedian = number("workplace_metres_median")
        c.classSize = Int(v.at("contacts.class_size")!.intValue!)
        c.schoolContactsMean = number("school_contacts_mean")
        c.schoolMinutesMean = number("school_minutes_mean")
        c.schoolMetresMedian = number("school_metres_median")
        c.communityContactsMean = number("community_contacts_mean")
        c.communityDispersion = number("community_dispersion")
        c.communityMinutesMean = number("community_minutes_mean")
        c.communityMetresMedian = number("community_metres_median")
        c.transportShare = number("transport_share")
        c.transportContactsPerTrip = number("transport_contacts_per_trip")
        c.transportMinutesMean = number("transport_minutes_mean")
        c.closeContactMetres = number("close_contact_metres")
        c.closeContactMinutes = number("close_contact_minutes")
        return c
    }
}
