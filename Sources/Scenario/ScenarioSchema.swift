import Simulation

/// Every key a scenario file may contain. Later model layers add their keys here;
/// blocks without keys yet reject any key, so a typo never passes silently.
public enum ScenarioSchema {
    public static let fields: [Field] = [
        Field("name", .text(default: nil),
              doc: "Scenario name; names the results folder. Default: the file name without extension."),
        Field("seed", .integer(default: 1, range: 0...Int64.max),
              doc: "Master seed. Every random stream is derived from (seed, stream name, entity index)."),
        Field("start", .date(default: "2020-10-01"),
              doc: "First simulated day (UTC midnight)."),
        Field("days", .integer(default: 28, range: 1...3650), unit: "days",
              doc: "Number of simulated days."),
        Field("population", .section(population), doc: "Who lives in the simulated country and who runs the app."),
        Field("contacts", .section(contacts), doc: "Contact layers (households, workplaces, schools, community, transport) and the ground-truth close-contact rule."),
        Field("radio", .section(radio, check: { v in
            let lo = v["rpi_rotation_min_minutes"]?.intValue ?? 0, hi = v["rpi_rotation_max_minutes"]?.intValue ?? 0
            if lo > hi { return "rpi_rotation_min_minutes (\(lo)) must not exceed rpi_rotation_max_minutes (\(hi))" }
            let a = v["advert_interval_min_ms"]?.doubleValue ?? 0, b = v["advert_interval_max_ms"]?.doubleValue ?? 0
            if a > b { return "advert_interval_min_ms must not exceed advert_interval_max_ms" }
            let window = v["scan_window_s"]?.doubleValue ?? 0, period = v["scan_period_s"]?.doubleValue ?? 0
            return window < period ? nil : "scan_window_s (\(ScenarioValue.format(window))) must be shorter than scan_period_s (\(ScenarioValue.format(period)))"
        }), doc: "Bluetooth advertising, scanning and channel model (see the README's radio section)."),
        Field("app", .section(app), doc: "App behaviour and exposure detection configuration."),
        Field("health", .section(health), doc: "Positive tests and index cases."),
        Field("backend", .section(backend), doc: "Key upload, verification and publishing."),
        Field("distribution", .section(distribution), doc: "Package downloads and CDN load."),
        Field("analytics", .section(analytics, check: { v in
            let lo = v["client_latency_min_ms"]?.intValue ?? 0, hi = v["client_latency_max_ms"]?.intValue ?? 0
            return lo <= hi ? nil : "client_latency_min_ms (\(lo)) must not exceed client_latency_max_ms (\(hi))"
        }), doc: "Immuni privacy-preserving analytics."),
        Field("p6", .section(p6, check: { v in
            let k = v["match_threshold"]?.intValue ?? 0, w = v["match_window"]?.intValue ?? 0
            return k <= w ? nil : "match_threshold (\(k)) must not exceed match_window (\(w))"
        }), doc: "P6 proximity protocol phones beside GAEN on the same contacts."),
        Field("outputs", .section(outputs), doc: "What a run writes besides summary.json, daily.csv and manifest.json."),
    ]

    static let population: [Field] = [
        Field("size", .integer(default: 10_000, range: 1...100_000_000), unit: "people",
              doc: "People in the simulated population."),
        Field("age_shares", .section([
            share("children", 0.16, "Share aged 0–17 (go to school)."),
            share("adults", 0.61, "Share aged 18–64 (may go to work)."),
            share("seniors", 0.23, "Share aged 65 and over."),
        ], check: sumsToOne), doc: "Age structure; shares must sum to 1."),
        Field("adoption_model", .choice(default: "overall", allowed: ["overall", "by_age"]),
              doc: "`overall`: everyone adopts with `app_adoption`; `by_age`: each age group with `app_adoption_by_age`."),
        Field("app_adoption", .number(default: 0.4, range: 0...1), unit: "share",
              doc: "Share of people running the app (each person draws from their own stream)."),
        Field("app_adoption_by_age", .section([
            share("children", 0.2, "Adoption among children."),
            share("adults", 0.5, "Adoption among adults."),
            share("seniors", 0.3, "Adoption among seniors."),
        ]), doc: "Adoption per age group, used when `adoption_model: by_age`."),
        Field("ios_share", .number(default: 0.3, range: 0...1), unit: "share", doc: "Share of app users on iOS (the rest on Android)."),
        Field("availability", .section([
            share("bluetooth_off", 0.10, "Probability that an app phone has Bluetooth off for a whole day."),
            share("phone_off", 0.02, "Probability that an app phone is off (or flat) for a whole day."),
            share("app_force_closed", 0.05, "Probability that the app was force-closed that day (no exposure checks; the OS still exchanges beacons)."),
            Field("uninstall_per_day", .number(default: 0.001, range: 0...1), unit: "probability/day", doc: "Daily probability that a user uninstalls the app for good."),
        ]), doc: "Why app phones miss contacts: drives false negatives."),
    ]

    static let contacts: [Field] = [
        Field("household_size_shares", .section([
            share("one", 0.41, "Households of 1."), share("two", 0.34, "Households of 2."), share("three", 0.12, "Households of 3."),
            share("four", 0.09, "Households of 4."), share("five_plus", 0.04, "Households of 5 (stands for 5 or more)."),
        ], check: sumsToOne), doc: "Household size distribution (shares of households; Germany 2019 micro-census); must sum to 1."),
        Field("household_minutes_mean", .number(default: 180, range: 1...1440), unit: "minutes", doc: "Mean time each pair of household members spends near each other per day."),
        Field("household_metres_median", .number(default: 1.8, range: 0.3...10), unit: "metres", doc: "Median distance between household members."),
        Field("employed_share", .number(default: 0.7, range: 0...1), unit: "share", doc: "Share of adults going to a workplace on weekdays."),
        Field("workplace_size_mean", .number(default: 12, range: 2...1000), unit: "people", doc: "Mean workplace size."),
        Field("workplace_contacts_mean", .number(default: 4, range: 0...100), unit: "contacts/day", doc: "Colleagues met per worker per weekday."),
        Field("workplace_minutes_mean", .number(default: 40, range: 1...600), unit: "minutes", doc: "Mean duration of a workplace contact."),
        Field("workplace_metres_median", .number(default: 2.0, range: 0.3...10), unit: "metres", doc: "Median distance between colleagues."),
        Field("class_size", .integer(default: 22, range: 2...100), unit: "pupils", doc: "School class size."),
        Field("school_contacts_mean", .number(default: 6, range: 0...100), unit: "contacts/day", doc: "Classmates met per pupil per weekday."),
        Field("school_minutes_mean", .number(default: 50, range: 1...600), unit: "minutes", doc: "Mean duration of a school contact."),
        Field("school_metres_median", .number(default: 1.5, range: 0.3...10), unit: "metres", doc: "Median distance between classmates."),
        Field("community_contacts_mean", .number(default: 4, range: 0...200), unit: "contacts/day", doc: "Random community contacts per person per day (negative binomial mean)."),
        Field("community_dispersion", .number(default: 0.8, range: 0.01...1000), doc: "Negative binomial dispersion k of community contacts (variance = mean + mean²/k)."),
        Field("community_minutes_mean", .number(default: 12, range: 1...600), unit: "minutes", doc: "Mean duration of a community contact."),
        Field("community_metres_median", .number(default: 2.5, range: 0.3...10), unit: "metres", doc: "Median distance in community contacts."),
        Field("transport_share", .number(default: 0.15, range: 0...1), unit: "share", doc: "Share of non-seniors riding public transport on weekdays (two trips)."),
        Field("transport_contacts_per_trip", .number(default: 5, range: 0...100), unit: "contacts/trip", doc: "Co-riders met per trip, at 1–3 m."),
        Field("transport_minutes_mean", .number(default: 15, range: 1...240), unit: "minutes", doc: "Mean time next to one co-rider."),
        Field("close_contact_metres", .number(default: 2, range: 0.1...10), unit: "metres", doc: "Ground-truth close-contact distance."),
        Field("close_contact_minutes", .number(default: 15, range: 1...1440), unit: "minutes", doc: "Cumulative minutes within the distance on one day that make a close contact."),
    ]

    static func share(_ name: String, _ value: Double, _ doc: String) -> Field {
        Field(name, .number(default: value, range: 0...1), unit: "share", doc: doc)
    }

    static let sumsToOne: @Sendable (ScenarioValue) -> String? = { value in
        guard case .section(let entries) = value else { return nil }
        let sum = entries.compactMap { $0.1.doubleValue }.reduce(0, +)
        return abs(sum - 1) <= 1e-6 ? nil : "shares must sum to 1, got \(ScenarioValue.format((sum * 1e6).rounded() / 1e6)) (" + entries.map { $0.0 }.joined(separator: " + ") + ")"
    }

    static let radio: [Field] = [
        Field("rpi_rotation_min_minutes", .integer(default: 10, range: 10...20), unit: "minutes",
              doc: "Shortest time between RPI (and Bluetooth address) changes; GAEN rotates every ~10–20 minutes."),
        Field("rpi_rotation_max_minutes", .integer(default: 20, range: 10...20), unit: "minutes",
              doc: "Longest time between RPI changes; each rotation draws uniformly in [min, max]."),
        Field("advert_interval_min_ms", .number(default: 200, range: 20...10_000), unit: "ms", doc: "Shortest advertising interval (GAEN: ~250 ms)."),
        Field("advert_interval_max_ms", .number(default: 270, range: 20...10_000), unit: "ms", doc: "Longest advertising interval; each scan window draws one in [min, max]."),
        Field("scan_window_s", .number(default: 4, range: 0.1...60), unit: "seconds", doc: "Length of a scan window (Android default 4 s)."),
        Field("scan_period_s", .integer(default: 300, range: 10...3600), unit: "seconds", doc: "Time between scan windows (Android default 300 s); each phone scans at its own phase."),
        Field("attenuation_at_1m_db", .number(default: 42, range: 0...120), unit: "dB", doc: "Attenuation at 1 m in line of sight between calibrated phones (free space at 2.44 GHz: 40.2 dB)."),
        Field("path_loss_exponent", .section(perLayer(default: [1.8, 1.8, 1.8, 2.0, 1.0], range: 0...6, unit: nil,
                                                        doc: "Path-loss exponent n (attenuation grows by 10·n dB per decade of distance)")),
              doc: "Log-distance path-loss exponent per contact layer; transport's low value models a metal box where attenuation follows distance poorly."),
        Field("shadowing_sigma_db", .section(perLayer(default: [5, 5, 5, 6, 8], range: 0...30, unit: "dB", doc: "Log-normal shadowing σ, drawn once per contact and direction")),
              doc: "Shadowing σ per contact layer."),
        Field("fading_sigma_db", .number(default: 3, range: 0...30), unit: "dB", doc: "Per-advert fading σ."),
        Field("placement_shares", .section([
            share("hand", 0.2, "Phone in hand."), share("pocket", 0.5, "Phone in a pocket."), share("bag", 0.3, "Phone in a bag."),
        ], check: sumsToOne), doc: "Where phones are carried, drawn per contact and phone; must sum to 1."),
        Field("placement_loss_db", .section([
            Field("hand", .number(default: 0, range: 0...60), unit: "dB", doc: "Loss with the phone in hand."),
            Field("pocket", .number(default: 6, range: 0...60), unit: "dB", doc: "Loss with the phone in a pocket."),
            Field("bag", .number(default: 10, range: 0...60), unit: "dB", doc: "Loss with the phone in a bag."),
        ]), doc: "Body/placement loss of each phone."),
        Field("android_model_shares", .section(DeviceModel.defaults.filter { $0.os == .android }.map {
            share($0.key, $0.share, "\($0.name): Tx \($0.txPowerDBm) dBm, RSSI correction \($0.rssiCorrectionDB) dB.")
        }, check: sumsToOne), doc: "Android device models (Tx power and RSSI correction representative of Google's calibration table); shares must sum to 1. iPhones are the reference (Tx −8 dBm, correction 0)."),
        Field("body_block_probability", .number(default: 0.3, range: 0...1), unit: "probability", doc: "Probability that a body blocks the line of sight during a contact."),
        Field("body_block_loss_db", .number(default: 10, range: 0...60), unit: "dB", doc: "Extra loss when a body blocks the line of sight."),
        Field("calibration_error_sigma_db", .number(default: 3, range: 0...30), unit: "dB", doc: "Residual error of a device model after GAEN's Tx/RSSI calibration, drawn once per model and run."),
        Field("reception_midpoint_db", .number(default: 82, range: 0...200), unit: "dB", doc: "Attenuation at which half of the adverts are received."),
        Field("reception_scale_db", .number(default: 4, range: 0.1...50), unit: "dB", doc: "Width of the logistic reception curve."),
    ]

    static func perLayer(default values: [Double], range: ClosedRange<Double>, unit: String?, doc: String) -> [Field] {
        ["household", "workplace", "school", "community", "transport"].enumerated().map { i, layer in
            Field(layer, .number(default: values[i], range: range), unit: unit, doc: doc + " (\(layer)).")
        }
    }

    static let outputs: [Field] = [
        Field("hourly", .boolean(default: true), doc: "Write hourly.csv."),
        Field("exports", .boolean(default: false), doc: "Write every published export zip into `exports/` (open them with `ensim gaen inspect`)."),
    ]
}
