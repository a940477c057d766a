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
        Field("contacts", .section([]), doc: "Contact layers (households, workplaces, community, transport)."),
        Field("radio", .section(radio, check: { v in
            let lo = v["rpi_rotation_min_minutes"]?.intValue ?? 0, hi = v["rpi_rotation_max_minutes"]?.intValue ?? 0
            return lo <= hi ? nil : "rpi_rotation_min_minutes (\(lo)) must not exceed rpi_rotation_max_minutes (\(hi))"
        }), doc: "Bluetooth advertising, scanning and channel model."),
        Field("app", .section([]), doc: "App behaviour and exposure detection configuration."),
        Field("health", .section([]), doc: "Positive tests and index cases."),
        Field("backend", .section([]), doc: "Key upload, verification and publishing."),
        Field("distribution", .section([]), doc: "Package downloads and CDN load."),
        Field("analytics", .section([]), doc: "Immuni privacy-preserving analytics."),
        Field("outputs", .section(outputs), doc: "What a run writes besides summary.json, daily.csv and manifest.json."),
    ]

    static let population: [Field] = [
        Field("size", .integer(default: 10_000, range: 1...100_000_000), unit: "people",
              doc: "People in the simulated population."),
        Field("app_adoption", .number(default: 0.4, range: 0...1), unit: "share",
              doc: "Share of people running the app (each person draws from their own stream)."),
    ]

    static let radio: [Field] = [
        Field("rpi_rotation_min_minutes", .integer(default: 10, range: 10...20), unit: "minutes",
              doc: "Shortest time between RPI (and Bluetooth address) changes; GAEN rotates every ~10–20 minutes."),
        Field("rpi_rotation_max_minutes", .integer(default: 20, range: 10...20), unit: "minutes",
              doc: "Longest time between RPI changes; each rotation draws uniformly in [min, max]."),
    ]

    static let outputs: [Field] = [
        Field("hourly", .boolean(default: true), doc: "Write hourly.csv."),
    ]
}
