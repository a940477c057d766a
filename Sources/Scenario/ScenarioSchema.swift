import EventEngine
import Simulation

/// Every key a scenario file may contain, each bound to the property of `ScenarioSettings` that holds
/// it. Blocks without keys yet reject any key, so a typo never passes silently.
public enum ScenarioSchema {
    typealias S = ScenarioSettings

    public static let fields: [Field] = [
        .text("name", form: .name, doc: "Scenario name; names the results folder. Default: the file name without extension.", defaultNote: "file name",
              get: { $0.name ?? "" }, set: { $0.name = $1 }),
        .integer("seed", \S.seed, range: 0...Int64.max,
                 doc: "Master seed. Every random stream is derived from (seed, stream name, entity index)."),
        .date("start", \S.start, range: supportedStarts, doc: """
            First simulated day (UTC midnight). From 2000 so that a key history before the start stays after 1970 (GAEN's \
            interval numbers and the keys' streams count from 1970); to 2095 so that the longest run ends before P6's \
            32-bit Unix seconds run out (2106-02-07).
            """),
        .integer("days", \S.days, range: Int64(SimulationConfig.supportedDays.lowerBound)...Int64(SimulationConfig.supportedDays.upperBound),
                 unit: "days", doc: "Number of simulated days."),
        .section("population", population, doc: "Who lives in the simulated country and who runs the app."),
        .section("contacts", contacts,
                 doc: "Contact layers (households, workplaces, schools, community, transport) and the ground-truth close-contact rule."),
        .section("radio", radio, check: { checkRadio($0.radio) },
                 doc: "Bluetooth advertising, scanning and channel model (see docs/model/radio.md)."),
        .section("app", app, doc: "App behaviour and exposure detection configuration."),
        .section("health", health, doc: "Positive tests and index cases."),
        .section("backend", backend, doc: "Key upload, verification and publishing."),
        .section("distribution", distribution, doc: "Package downloads and CDN load."),
        .section("analytics", analytics, check: { s in
            let (lo, hi) = (s.analytics.clientLatencyMinMs, s.analytics.clientLatencyMaxMs)
            return lo <= hi ? nil : "client_latency_min_ms (\(lo)) must not exceed client_latency_max_ms (\(hi))"
        }, doc: "Immuni privacy-preserving analytics."),
        .section("p6", p6, check: { s in
            let (k, w) = (s.p6.matchThreshold, s.p6.matchWindow)
            return k <= w ? nil : "match_threshold (\(k)) must not exceed match_window (\(w))"
        }, doc: "P6 proximity protocol phones beside GAEN on the same contacts."),
        .section("epidemic", epidemic, check: { s in
            // Only for an enabled block, and a valid size (a bad size has its own problem line).
            let size = s.population.size
            guard s.epidemic.enabled, size >= 1 else { return nil }
            return s.epidemic.initialInfections <= size ? nil
                : "initial_infections (\(s.epidemic.initialInfections)) must not exceed population.size (\(size))"
        }, doc: "An epidemic over the simulated contacts whose positive tests are the index cases (off by default)."),
        .section("outputs", outputs, doc: "What a run writes besides summary.json, daily.csv and manifest.json."),
    ]

    static let supportedStarts = SimulationConfig.supportedStartDates

    static let ageGroups: [(name: String, doc: String)] = [
        ("children", "Share aged 0–17 (go to school)."), ("adults", "Share aged 18–64 (may go to work)."),
        ("seniors", "Share aged 65 and over."),
    ]

    static let population: [Field] = [
        .integer("size", \S.population.size, range: 1...100_000_000, unit: "people", doc: "People in the simulated population."),
        .shares("age_shares", \S.population.ageShares, keys: ageGroups, doc: "Age structure; shares must sum to 1."),
        .choice("adoption_model", \S.adoptionModel,
                doc: "`overall`: everyone adopts with `app_adoption`; `by_age`: each age group with `app_adoption_by_age`."),
        .number("app_adoption", \S.population.appAdoption, range: 0...1, unit: "share",
                doc: "Share of people running the app (each person draws from their own stream)."),
        .section("app_adoption_by_age", Field.numbers(\S.adoptionByAge, keys: [
            ("children", "Adoption among children."), ("adults", "Adoption among adults."), ("seniors", "Adoption among seniors."),
        ], range: 0...1, unit: "share"), doc: "Adoption per age group, used when `adoption_model: by_age`."),
        .number("ios_share", \S.population.iOSShare, range: 0...1, unit: "share", doc: "Share of app users on iOS (the rest on Android)."),
        .section("availability", [
            .share("bluetooth_off", \S.availability.bluetoothOff, "Probability that an app phone has Bluetooth off for a whole day."),
            .share("phone_off", \S.availability.phoneOff, "Probability that an app phone is off (or flat) for a whole day."),
            .share("app_force_closed", \S.availability.appForceClosed,
                   "Probability that the app was force-closed that day (no exposure checks; the OS still exchanges beacons)."),
            .number("uninstall_per_day", \S.availability.uninstallPerDay, range: 0...1, unit: "probability/day",
                    doc: "Daily probability that a user uninstalls the app for good."),
        ], doc: "Why app phones miss contacts: drives false negatives."),
    ]

    static let contacts: [Field] = [
        .shares("household_size_shares", \S.contacts.householdSizeShares, keys: [
            ("one", "Households of 1."), ("two", "Households of 2."), ("three", "Households of 3."), ("four", "Households of 4."),
            ("five_plus", "Households of 5 (stands for 5 or more)."),
        ], doc: "Household size distribution (shares of households; Germany 2019 micro-census); must sum to 1."),
        .number("household_minutes_mean", \S.contacts.householdMinutesMean, range: 1...1440, unit: "minutes",
                doc: "Mean time each pair of household members spends near each other per day."),
        .number("household_metres_median", \S.contacts.householdMetresMedian, range: 0.3...10, unit: "metres",
                doc: "Median distance between household members."),
        .number("employed_share", \S.contacts.employedShare, range: 0...1, unit: "share",
                doc: "Share of adults going to a workplace on weekdays."),
        .number("workplace_size_mean", \S.contacts.workplaceSizeMean, range: 2...1000, unit: "people", doc: "Mean workplace size."),
        .number("workplace_contacts_mean", \S.contacts.workplaceContactsMean, range: 0...100, unit: "contacts/day",
                doc: "Colleagues met per worker per weekday."),
        .number("workplace_minutes_mean", \S.contacts.workplaceMinutesMean, range: 1...600, unit: "minutes",
                doc: "Mean duration of a workplace contact."),
        .number("workplace_metres_median", \S.contacts.workplaceMetresMedian, range: 0.3...10, unit: "metres",
                doc: "Median distance between colleagues."),
        .integer("class_size", \S.contacts.classSize, range: 2...100, unit: "pupils", doc: "School class size."),
        .number("school_contacts_mean", \S.contacts.schoolContactsMean, range: 0...100, unit: "contacts/day",
                doc: "Classmates met per pupil per weekday."),
        .number("school_minutes_mean", \S.contacts.schoolMinutesMean, range: 1...600, unit: "minutes",
                doc: "Mean duration of a school contact."),
        .number("school_metres_median", \S.contacts.schoolMetresMedian, range: 0.3...10, unit: "metres",
                doc: "Median distance between classmates."),
        .number("community_contacts_mean", \S.contacts.communityContactsMean, range: 0...200, unit: "contacts/day",
                doc: "Random community contacts per person per day (negative binomial mean)."),
        .number("community_dispersion", \S.contacts.communityDispersion, range: 0.01...1000,
                doc: "Negative binomial dispersion k of community contacts (variance = mean + mean²/k)."),
        .number("community_minutes_mean", \S.contacts.communityMinutesMean, range: 1...600, unit: "minutes",
                doc: "Mean duration of a community contact."),
        .number("community_metres_median", \S.contacts.communityMetresMedian, range: 0.3...10, unit: "metres",
                doc: "Median distance in community contacts."),
        .number("transport_share", \S.contacts.transportShare, range: 0...1, unit: "share",
                doc: "Share of non-seniors riding public transport on weekdays (two trips)."),
        .number("transport_contacts_per_trip", \S.contacts.transportContactsPerTrip, range: 0...100, unit: "contacts/trip",
                doc: "Co-riders met per trip, at 1–3 m."),
        .number("transport_minutes_mean", \S.contacts.transportMinutesMean, range: 1...240, unit: "minutes",
                doc: "Mean time next to one co-rider."),
        .number("close_contact_metres", \S.contacts.closeContactMetres, range: 0.1...10, unit: "metres",
                doc: "Ground-truth close-contact distance."),
        .number("close_contact_minutes", \S.contacts.closeContactMinutes, range: 1...1440, unit: "minutes",
                doc: "Cumulative minutes within the distance on one day that make a close contact."),
    ]

    static let outputs: [Field] = [
        .boolean("hourly", \S.writeHourly, doc: "Write hourly.csv."),
        .boolean("distribution_minutes", \S.distribution.writesMinutes, doc: """
            Write distribution_minutes.csv (1,440 rows and about 90 kB a simulated day). Its rows go to the run folder as the \
            run goes, so a long run pays for it in disk, not memory; it adds ~20% to a small long run's time (200 people, 730 days).
            """),
        .boolean("exports", \S.backend.keepExports,
                 doc: "Write every published export zip into `exports/` (open them with `ensim gaen inspect`)."),
    ]
}
