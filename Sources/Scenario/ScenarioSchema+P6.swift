import Simulation

/// The `p6` block: P6 phones next to GAEN on the same contacts (see docs/model/p6.md).
extension ScenarioSchema {
    static let p6: [Field] = [
        Field("enabled", .boolean(default: false),
              doc: "Run P6 on every app phone beside GAEN and add its results (summary `p6`, p6_comparison.csv). Cases whose GAEN keys were uploaded disclose P6 at the same moment. Phones fetch the disclosure files with the `distribution` block's check schedule, offline days, deferrals, retries and CDN (app phones only, their own random streams)."),
        Field("transmit", .section([
            share("ios_share", 0.10, "Share of the day an iPhone advertises iBeacons (P6 or an affiliate app in the foreground; ENSim's round value)."),
            share("android_share", 0.80, "Share of the day an Android phone advertises (background advertising; some models cannot)."),
            Field("mean_session_s", .number(default: 600, range: 1...86_400), unit: "seconds", doc: "Mean length of one transmitting session (exponential)."),
        ]), doc: "When phones can transmit; reception (monitoring the 8 UUIDs) runs in the background on both OSes."),
        Field("slice_s", .integer(default: 60, range: 1...3_600), unit: "seconds", doc: "Slice length: one 32-bit slice code per slice (seed: about 1 minute)."),
        Field("rx_retention_days", .integer(default: 21, range: 1...60), unit: "days", doc: "Days of Rx trace a phone keeps (~3 weeks)."),
        Field("match_threshold", .integer(default: 3, range: 1...100), unit: "slices", doc: "Matched slices needed within the window for a full match (seed: 3)."),
        Field("match_window", .integer(default: 5, range: 1...100), unit: "slices", doc: "Consecutive slices of the sliding match window (seed: 5)."),
        Field("minimum_epoch_age_h", .integer(default: 24, range: 0...336), unit: "hours", doc: "An epoch is disclosed only once it started at least this long ago (seed: 24 h)."),
        Field("disclosure_file_s", .integer(default: 3_600, range: 60...86_400), unit: "seconds", doc: "Period of the disclosure files (seed: one file each hour); periods without disclosures make no file."),
        Field("clock_offset_sigma_s", .number(default: 0.5, range: 0...60), unit: "seconds", doc: "σ of a phone's daily clock error against UTC (seed: synchronised to a second or so)."),
        Field("regions", .section([
            Field("count", .integer(default: 1, range: 1...64), unit: "regions",
                  doc: "Disclosure streams, one per region (seed: a stream of disclosures per geographic region). Regions are equal blocks of whole households; the contact model has no geography, so other contacts cross regions as in a well-mixed population."),
            Field("subscribe", .choice(default: "home", allowed: P6Subscription.allCases.map(\.rawValue)),
                  doc: "`home`: a phone fetches its home region's stream; `all`: every stream (each checked on its own schedule)."),
            share("stated_regions_share", 0, "Share of disclosers who state the regions they visited (the home regions of everyone they met in the disclosed period); their disclosure is published in those streams too."),
        ]), doc: "Regional disclosure streams (files per region and period)."),
    ]
}

extension P6RunParameters {
    init(scenario v: ScenarioValue) {
        func int(_ key: String) -> Int { Int(v.at("p6." + key)!.intValue!) }
        func number(_ key: String) -> Double { v.at("p6." + key)!.doubleValue! }
        self.init()
        enabled = v.at("p6.enabled")!.boolValue!
        transmit.iosShare = number("transmit.ios_share")
        transmit.androidShare = number("transmit.android_share")
        transmit.meanSessionSeconds = number("transmit.mean_session_s")
        sliceSeconds = int("slice_s")
        rxRetentionDays = int("rx_retention_days")
        matchThreshold = int("match_threshold")
        matchWindow = int("match_window")
        minimumEpochAgeSeconds = int("minimum_epoch_age_h") * 3_600
        disclosureFileSeconds = int("disclosure_file_s")
        clockOffsetSigmaSeconds = number("clock_offset_sigma_s")
        regions = int("regions.count")
        subscription = P6Subscription(rawValue: v.at("p6.regions.subscribe")!.textValue!)!
        statedRegionsShare = number("regions.stated_regions_share")
    }
}
