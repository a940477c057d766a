import Detection
import Simulation

extension ValueTree {
    /// Every key of the schema with its value in `settings`, in schema order.
    public init(_ settings: ScenarioSettings, fields: [Field] = ScenarioSchema.fields) {
        self = .section(fields.map { field in
            if case .section(let children, _) = field.kind { return (field.name, ValueTree(settings, fields: children)) }
            return (field.name, field.slot?.read(settings) ?? .section([]))
        })
    }
}

extension ScenarioSettings {
    /// Reads a resolved scenario (e.g. after command-line overrides) back into typed settings, key by
    /// key through the schema; a block's keys in schema order, so a preset comes before its overrides.
    public init(resolved: ValueTree, fields: [Field] = ScenarioSchema.fields) {
        self.init()
        apply(resolved, fields: fields)
    }

    mutating func apply(_ value: ValueTree, fields: [Field]) {
        guard case .section(let entries) = value else { return }
        for field in fields {
            guard let given = entries.first(where: { $0.0 == field.name })?.1 else { continue }
            if case .section(let children, _) = field.kind {
                apply(given, fields: children)
            } else {
                field.slot?.write(&self, given)
            }
        }
    }
}

extension SimulationConfig {
    /// Builds the run configuration from a validated, resolved scenario.
    public init(scenario: ValueTree, threads: Int) {
        self = ScenarioSettings(resolved: scenario).simulationConfig(threads: threads)
    }
}

extension DetectionParameters {
    /// The `app.detection` block of a resolved scenario.
    public init(scenario: ValueTree) {
        self = ScenarioSettings(resolved: scenario).detection.parameters
    }
}
