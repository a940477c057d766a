import Simulation
import Yams

/// Fills the `app.detection` keys a scenario leaves out with the chosen preset's values, so
/// a preset is a base that any key overrides, and the resolved scenario shows what ran.
enum DetectionPresetResolver {
    static let path = ["app", "detection"]

    static func resolve(_ value: ScenarioValue, root: Node?) -> ScenarioValue {
        guard let name = value.at("app.detection.preset")?.textValue, let preset = DetectionPreset(rawValue: name) else { return value }
        let given = givenLeaves(node(at: path, in: root))
        var out = value
        let (block, section): (String, ScenarioValue) = {
            switch preset.model {
            case .v1(let c): ("gaen_v1", v1Section(c))
            case .v2(let c): ("gaen_v2", v2Section(c))
            }
        }()
        for (leaf, presetValue) in leaves(section, prefix: [block]) where !given.contains(leaf) {
            out = out.replacing(path + leaf, with: presetValue)
        }
        return out
    }

    static func node(at path: [String], in root: Node?) -> Node? {
        path.reduce(root) { node, key in node?.mapping?[Node(key)] }
    }

    /// Paths of the scalar keys written in the YAML block.
    static func givenLeaves(_ node: Node?, prefix: [String] = []) -> Set<[String]> {
        guard let mapping = node?.mapping else { return prefix.isEmpty ? [] : [prefix] }
        var out: Set<[String]> = []
        for (k, v) in mapping { if let key = k.scalar?.string { out.formUnion(givenLeaves(v, prefix: prefix + [key])) } }
        return out
    }

    static func leaves(_ value: ScenarioValue, prefix: [String]) -> [([String], ScenarioValue)] {
        guard case .section(let entries) = value else { return [(prefix, value)] }
        return entries.flatMap { leaves($0.1, prefix: prefix + [$0.0]) }
    }

    static func ints(_ names: [String], _ values: [Int]) -> ScenarioValue { .section(zip(names, values).map { ($0, .integer(Int64($1))) }) }
    static func numbers(_ names: [String], _ values: [Double]) -> ScenarioValue { .section(zip(names, values).map { ($0, .number($1)) }) }

    /// A v1 configuration as the `gaen_v1` block.
    static func v1Section(_ c: ExposureConfigurationV1) -> ScenarioValue {
        typealias S = ScenarioSchema
        return .section([
            ("attenuation_level_values", ints(S.v1AttenuationLevels, c.attenuationLevelValues)),
            ("days_since_exposure_level_values", ints(S.v1DaysLevels, c.daysSinceLastExposureLevelValues)),
            ("duration_level_values", ints(S.v1DurationLevels, c.durationLevelValues)),
            ("transmission_risk_level_values", ints(S.v1RiskLevels, c.transmissionRiskLevelValues)),
            ("transmission_risk_level_when_missing", .integer(Int64(c.transmissionRiskLevelWhenMissing))),
            ("minimum_risk_score", .integer(Int64(c.minimumRiskScore))),
            ("attenuation_thresholds_db", ints(["low", "high"], c.durationAtAttenuationThresholds)),
            ("rule", .text(c.rule.rawValue)),
            ("bucket_weights", numbers(["low", "middle", "high"], c.attenuationBucketWeights)),
            ("normalization_divisor", .number(c.riskScoreNormalizationDivisor)),
            ("notify_threshold", .number(c.notifyThreshold)),
        ])
    }

    /// A v2 configuration as the `gaen_v2` block (its onset mapping: one high range, one other value).
    static func v2Section(_ c: DailySummariesConfigV2) -> ScenarioValue {
        let map = c.infectiousnessByDaysSinceOnset
        let high = map.indices.filter { map[$0] == 2 }
        let other = map.indices.first { map[$0] != 2 }.map { map[$0] } ?? 1
        let names = ScenarioSchema.infectiousnessNames
        return .section([
            ("attenuation_thresholds_db", ints(["immediate", "near", "medium"], c.attenuationBucketThresholds)),
            ("attenuation_weights", numbers(["immediate", "near", "medium", "other"], c.attenuationBucketWeights)),
            ("infectiousness", .section([
                ("high_from_days_since_onset", .integer(Int64((high.first ?? 14) - 14))),
                ("high_to_days_since_onset", .integer(Int64((high.last ?? 14) - 14))),
                ("other_days", .text(names[other])),
                ("when_onset_missing", .text(names[c.infectiousnessWhenOnsetMissing])),
                ("standard_weight", .number(c.infectiousnessWeights[0])),
                ("high_weight", .number(c.infectiousnessWeights[1])),
            ])),
            ("report_type_weights", numbers(["confirmed_test", "confirmed_clinical_diagnosis", "self_report", "recursive"], c.reportTypeWeights)),
            ("report_type_when_missing", .integer(Int64(c.reportTypeWhenMissing))),
            ("minimum_window_score", .number(c.minimumWindowScore)),
            ("notify_weighted_minutes", .number(c.notifyWeightedMinutes)),
        ])
    }
}

extension DetectionParameters {
    /// From a resolved scenario (preset values already filled in).
    public init(scenario v: ScenarioValue) {
        func int(_ p: String) -> Int { Int(v.at("app.detection." + p)!.intValue!) }
        func number(_ p: String) -> Double { v.at("app.detection." + p)!.doubleValue! }
        func text(_ p: String) -> String { v.at("app.detection." + p)!.textValue! }
        let preset = DetectionPreset(rawValue: text("preset"))!
        typealias S = ScenarioSchema
        let model: RiskModel
        switch preset.model {
        case .v1:
            model = .v1(ExposureConfigurationV1(
                attenuationLevelValues: S.v1AttenuationLevels.map { int("gaen_v1.attenuation_level_values." + $0) },
                daysSinceLastExposureLevelValues: S.v1DaysLevels.map { int("gaen_v1.days_since_exposure_level_values." + $0) },
                durationLevelValues: S.v1DurationLevels.map { int("gaen_v1.duration_level_values." + $0) },
                transmissionRiskLevelValues: S.v1RiskLevels.map { int("gaen_v1.transmission_risk_level_values." + $0) },
                transmissionRiskLevelWhenMissing: int("gaen_v1.transmission_risk_level_when_missing"),
                minimumRiskScore: int("gaen_v1.minimum_risk_score"),
                durationAtAttenuationThresholds: ["low", "high"].map { int("gaen_v1.attenuation_thresholds_db." + $0) },
                rule: ExposureConfigurationV1.Rule(rawValue: text("gaen_v1.rule"))!,
                attenuationBucketWeights: ["low", "middle", "high"].map { number("gaen_v1.bucket_weights." + $0) },
                riskScoreNormalizationDivisor: number("gaen_v1.normalization_divisor"),
                notifyThreshold: number("gaen_v1.notify_threshold")))
        case .v2:
            let names = S.infectiousnessNames
            let from = int("gaen_v2.infectiousness.high_from_days_since_onset"), to = int("gaen_v2.infectiousness.high_to_days_since_onset")
            let other = names.firstIndex(of: text("gaen_v2.infectiousness.other_days"))!
            model = .v2(DailySummariesConfigV2(
                attenuationBucketThresholds: ["immediate", "near", "medium"].map { int("gaen_v2.attenuation_thresholds_db." + $0) },
                attenuationBucketWeights: ["immediate", "near", "medium", "other"].map { number("gaen_v2.attenuation_weights." + $0) },
                infectiousnessByDaysSinceOnset: (-14...14).map { (from...to).contains($0) ? 2 : other },
                infectiousnessWhenOnsetMissing: names.firstIndex(of: text("gaen_v2.infectiousness.when_onset_missing"))!,
                infectiousnessWeights: [number("gaen_v2.infectiousness.standard_weight"), number("gaen_v2.infectiousness.high_weight")],
                reportTypeWeights: ["confirmed_test", "confirmed_clinical_diagnosis", "self_report", "recursive"].map { number("gaen_v2.report_type_weights." + $0) },
                reportTypeWhenMissing: int("gaen_v2.report_type_when_missing"),
                minimumWindowScore: number("gaen_v2.minimum_window_score"),
                notifyWeightedMinutes: number("gaen_v2.notify_weighted_minutes")))
        }
        let from = int("grid.attenuation_from_db"), to = int("grid.attenuation_to_db"), step = int("grid.attenuation_step_db")
        self.init(preset: preset, model: model, gridAttenuations: Array(stride(from: from, through: to, by: step)),
                  gridMinutes: (1...5).map { int("grid.minutes.m\($0)") })
    }
}

/// `Scenarios/presets/NAME.yaml`: a preset written out as a scenario fragment with every value.
public enum DetectionPresetFile {
    public static func yaml(_ preset: DetectionPreset) -> String {
        var out = "# Detection preset `\(preset.rawValue)`: \(preset.doc).\n"
        out += "# Generated by `ensim scenario preset \(preset.rawValue)`; a scenario selects it with\n"
        out += "# `app.detection.preset: \(preset.rawValue)` and may override any key below.\n"
        out += "app:\n  detection:\n    preset: \(preset.rawValue)\n"
        let (block, section): (String, ScenarioValue) = {
            switch preset.model {
            case .v1(let c): ("gaen_v1", DetectionPresetResolver.v1Section(c))
            case .v2(let c): ("gaen_v2", DetectionPresetResolver.v2Section(c))
            }
        }()
        out += "    \(block):\n"
        write(section, indent: 6, into: &out)
        return out
    }

    static func write(_ value: ScenarioValue, indent: Int, into out: inout String) {
        guard case .section(let entries) = value else { return }
        let pad = String(repeating: " ", count: indent)
        for (key, v) in entries {
            switch v {
            case .section: out += "\(pad)\(key):\n"; write(v, indent: indent + 2, into: &out)
            case .integer(let n): out += "\(pad)\(key): \(n)\n"
            case .number(let x): out += "\(pad)\(key): \(ScenarioValue.format(x))\n"
            case .text(let t): out += "\(pad)\(key): \(t)\n"
            case .boolean(let b): out += "\(pad)\(key): \(b)\n"
            }
        }
    }
}
