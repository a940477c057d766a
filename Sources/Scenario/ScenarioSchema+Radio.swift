import Simulation
import World

/// The `radio` block: the Bluetooth channel model (see docs/model/radio.md).
extension ScenarioSchema {
    static let layers = ContactLayer.allCases.map(\.name)

    static func perLayer(_ path: Field.Path<[Double]>, range: ClosedRange<Double>, unit: String?, doc: String) -> [Field] {
        Field.numbers(path, keys: layers.map { ($0, doc + " (\($0)).") }, range: range, unit: unit)
    }

    static func checkRadio(_ r: RadioParameters) -> String? {
        let (lo, hi) = (r.rpiRotationMinMinutes, r.rpiRotationMaxMinutes)
        if lo > hi { return "rpi_rotation_min_minutes (\(lo)) must not exceed rpi_rotation_max_minutes (\(hi))" }
        if r.advertIntervalMinMs > r.advertIntervalMaxMs { return "advert_interval_min_ms must not exceed advert_interval_max_ms" }
        let (window, period) = (r.scanWindowSeconds, Double(r.scanPeriodSeconds))
        if window >= period { return "scan_window_s (\(ValueTree.format(window))) must be shorter than scan_period_s (\(ValueTree.format(period)))" }
        let shortest = r.scanPeriodSeconds - r.androidScanIntervalRandomRangeSeconds
        return Double(shortest) > window ? nil : """
            android_scan_interval_random_range_s (\(r.androidScanIntervalRandomRangeSeconds)) leaves a shortest interval of \(shortest) s, \
            not longer than scan_window_s (\(ValueTree.format(window)))
            """
    }

    /// Android models by their index in `RadioParameters.deviceModels` (iPhones are the reference).
    static let androidModels = RadioParameters.default.deviceModels.indices.filter {
        RadioParameters.default.deviceModels[$0].os == .android
    }

    static let radio: [Field] = [
        .integer("rpi_rotation_min_minutes", \S.radio.rpiRotationMinMinutes, range: 10...20, unit: "minutes",
                 doc: "Shortest time between RPI (and Bluetooth address) changes; GAEN rotates every ~10–20 minutes."),
        .integer("rpi_rotation_max_minutes", \S.radio.rpiRotationMaxMinutes, range: 10...20, unit: "minutes",
                 doc: "Longest time between RPI changes; each rotation draws uniformly in [min, max]."),
        .section("clock_skew", [
            .number("sd_minutes", \S.radio.clockSkewSDMinutes, range: 0...1440, unit: "minutes", doc: """
                Standard deviation of each app phone's clock offset (normal, drawn once per phone from its own stream); the \
                phone numbers its RPIs and rolls its keys by its own clock and timestamps what it hears by it. 0 (default): \
                exact clocks, outputs as before. Assumption: no measured distribution of phone clock errors is used.
                """),
            .number("max_minutes", \S.radio.clockSkewMaxMinutes, range: 0...1440, unit: "minutes", doc: """
                Offsets are clipped to ± this; 120 is the tolerance GAEN allows a clock (an RPI matches up to 12 intervals, \
                2 h, outside its key's validity: tkMatchingClockDriftRollingPeriods).
                """),
        ], doc: "Per-phone clock offsets (summary detection.clock_skew counts RPIs outside GAEN's drift tolerance)."),
        .section("collisions", [
            .boolean("enabled", \S.radio.collisionsEnabled, doc: """
                Lose adverts to radio collisions between unsynchronised advertisers (pure ALOHA: an advert is lost with \
                probability 1 − exp(−2·N·τ/T̄), N the receiver's other advertisers at that time, τ the air time, T̄ the mean \
                advertising interval; docs/model/radio.md). Off (default): no collision draws, outputs as before.
                """),
            .number("advert_airtime_us", \S.radio.advertAirtimeMicroseconds, range: 10...20_000, unit: "microseconds", doc: """
                Air time of one advertising packet: a legacy advert with GAEN's 31-byte payload is 47 bytes at 1 Mb/s, 376 µs \
                (Bluetooth Core 5.2, Vol 6 Part B §2.1; GAEN Bluetooth specification 1.2).
                """),
            .number("advertisers_per_contact", \S.radio.advertisersPerContact, range: 0...1_000, unit: "advertisers", doc: """
                Advertisers a receiver hears per app phone it is in contact with at that time (ENSim's choice: 1, only the \
                contacts; more stands for phones in radio range but not in contact, and other Bluetooth devices).
                """),
            .boolean("capture", \S.radio.captureEnabled, doc: """
                The capture effect: an advert hit by overlapping adverts is still received when its power exceeds their \
                summed power by capture_threshold_db; each overlapping advert comes from one of the receiver's concurrent \
                contacts, at that contact's own attenuation plus fading. Off (default): any overlap loses the advert, so \
                losses are an upper bound for a given density.
                """),
            .number("capture_threshold_db", \S.radio.captureThresholdDB, range: 0...60, unit: "dB", doc: """
                Wanted-to-interferer power ratio needed to capture: 21 dB is the co-channel C/I every Bluetooth LE receiver \
                must meet at 1 Mb/s (Bluetooth Core 5.2, Vol 6 Part A §4.2, interference performance); chip datasheets give \
                12–14 dB (TI WL18xx 12 dB, Microchip 12–14 dB), so 21 is the conservative end.
                """),
            .boolean("dual_protocol_advertisers", \S.radio.dualProtocolAdvertisers, doc: """
                With p6 enabled, a phone transmitting P6 beside GAEN counts as two advertisers while it transmits P6 (each \
                protocol sends its own adverts). false (default): one advertiser per phone, outputs as before.
                """),
        ], doc: "Radio-level collisions by local density (summary.json radio.collisions: adverts lost, loss by density band)."),
        .number("advert_interval_min_ms", \S.radio.advertIntervalMinMs, range: 20...10_000, unit: "ms",
                doc: "Shortest advertising interval (GAEN: ~250 ms)."),
        .number("advert_interval_max_ms", \S.radio.advertIntervalMaxMs, range: 20...10_000, unit: "ms",
                doc: "Longest advertising interval; each scan window draws one in [min, max]."),
        .number("scan_window_s", \S.radio.scanWindowSeconds, range: 0.1...60, unit: "seconds",
                doc: "Length of a scan window (Android default 4 s)."),
        .integer("scan_period_s", \S.radio.scanPeriodSeconds, range: 10...3600, unit: "seconds",
                 doc: "Time between scan windows (Android default 300 s); each phone scans at its own phase."),
        .integer("android_scan_interval_random_range_s", \S.radio.androidScanIntervalRandomRangeSeconds, range: 0...3_599,
                 unit: "seconds", doc: """
                    Android phones scan every scan_period_s minus a uniform 0…this many seconds, drawn per scan from the phone's \
                    own stream of the day; iPhones keep the fixed period. GAEN on Android: 90, so every 210–300 s \
                    (google/exposure-notifications-internals, ContactTracingFeature.scanIntervalRandomRangeSeconds, \
                    BleScannerImpl.getScanInterval). 0 (default): every phone at the fixed period, outputs as before.
                    """),
        .number("attenuation_at_1m_db", \S.radio.attenuationAt1m, range: 0...120, unit: "dB",
                doc: "Attenuation at 1 m in line of sight between calibrated phones (free space at 2.44 GHz: 40.2 dB)."),
        .section("path_loss_exponent", perLayer(\S.radio.pathLossExponent, range: 0...6, unit: nil,
                                                doc: "Path-loss exponent n (attenuation grows by 10·n dB per decade of distance)"),
                 doc: """
                     Log-distance path-loss exponent per contact layer; workplace's 1.2 is fitted to indoor RSSI at known \
                     distances (Ng et al. 2021, Lanfer et al. 2022; `ensim radio fit --layer workplace`), transport's 0.36 \
                     to Leith & Farrell's tram measurements (a metal box where attenuation follows distance poorly); \
                     household, school and community are round values (no measurements from those settings).
                     """),
        .section("shadowing_sigma_db", perLayer(\S.radio.shadowingSigma, range: 0...30, unit: "dB",
                                                doc: "Log-normal shadowing σ, drawn once per contact and direction, or per contact with reciprocal_shadowing"),
                 doc: "Shadowing σ per contact layer; workplace's 2.67 dB and transport's 0 are fitted (as path_loss_exponent)."),
        .boolean("reciprocal_shadowing", \S.radio.reciprocalShadowing, doc: """
            The two directions of a contact share one draw of placements, body blocking and shadowing: the path between two \
            phones is the same both ways (radio channel reciprocity). Each direction keeps its own scans and per-advert \
            fading; the calibration errors of the two phones add up the same either way. false (default): each direction \
            draws its own, outputs as before.
            """),
        .section("environment_loss_db", perLayer(\S.radio.environmentLoss, range: -30...60, unit: "dB",
                                                 doc: "Extra loss of the environment, added to every contact in it"),
                 doc: """
                     Extra loss per contact layer; transport's 7.1 dB is fitted to Leith & Farrell's tram measurements \
                     (`ensim radio fit`, docs/model/radio-calibration.md), the others have no measurement and stay 0.
                     """),
        .number("fading_sigma_db", \S.radio.fadingSigma, range: 0...30, unit: "dB", doc: "Per-advert fading σ."),
        .shares("placement_shares", \S.radio.placementShares, keys: [
            ("hand", "Phone in hand."), ("pocket", "Phone in a pocket."), ("bag", "Phone in a bag."),
        ], doc: "Where phones are carried, drawn per contact and phone; must sum to 1."),
        .section("placement_loss_db", Field.numbers(\S.radio.placementLoss, keys: [
            ("hand", "Loss with the phone in hand."), ("pocket", "Loss with the phone in a pocket."),
            ("bag", "Loss with the phone in a bag."),
        ], range: 0...60, unit: "dB"), doc: "Body/placement loss of each phone."),
        .section("android_model_shares", androidModels.map { i in
            let m = RadioParameters.default.deviceModels[i]
            let doc = "\(m.name): Tx \(m.txPowerDBm) dBm, RSSI correction \(m.rssiCorrectionDB) dB."
            return Field.number(m.key, range: 0...1, unit: "share", doc: doc,
                                get: { $0.radio.deviceModels[i].share }, set: { $0.radio.deviceModels[i].share = $1 })
        }, check: { s in
            Field.sumsToOne(androidModels.map { s.radio.deviceModels[$0].share }, names: androidModels.map { s.radio.deviceModels[$0].key })
        }, doc: """
            Android device models (Tx power and RSSI correction representative of Google's calibration table); shares must sum to 1. \
            iPhones are the reference (Tx −8 dBm, correction 0).
            """),
        .number("body_block_probability", \S.radio.bodyBlockProbability, range: 0...1, unit: "probability",
                doc: "Probability that a body blocks the line of sight during a contact."),
        .number("body_block_loss_db", \S.radio.bodyBlockLoss, range: 0...60, unit: "dB",
                doc: "Extra loss when a body blocks the line of sight."),
        .number("calibration_error_sigma_db", \S.radio.calibrationErrorSigma, range: 0...30, unit: "dB",
                doc: "Residual error of a device model after GAEN's Tx/RSSI calibration, drawn once per model and run."),
        .number("reception_midpoint_db", \S.radio.receptionMidpoint, range: 0...200, unit: "dB",
                doc: "Attenuation at which half of the adverts are received."),
        .number("reception_scale_db", \S.radio.receptionScale, range: 0.1...50, unit: "dB", doc: "Width of the logistic reception curve."),
    ]
}
