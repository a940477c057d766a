/// One scenario key: its name, type, allowed values, unit and meaning, and for a value the property
/// of `ScenarioSettings` that holds it. The default is that property's initial value, so validation,
/// defaults, the resolved scenario, `ensim scenario reference` and Scenarios/README.md all come from
/// this one declaration.
public struct Field: Sendable {
    public let name: String
    public let kind: FieldKind
    public let unit: String?
    public let doc: String
    /// Where a value lives; nil for a block.
    let slot: Slot?
    /// What the reference shows as default instead of the value (the name: "file name").
    let defaultNote: String?

    init(_ name: String, _ kind: FieldKind, unit: String? = nil, doc: String, slot: Slot?, defaultNote: String? = nil) {
        self.name = name
        self.kind = kind
        self.unit = unit
        self.doc = doc
        self.slot = slot
        self.defaultNote = defaultNote
    }

    /// The value in the default settings.
    var defaultValue: ValueTree? { slot?.read(.default) }
}

/// Reads and writes one key's value in the typed settings, converting units where the file's
/// differ from the model's.
struct Slot: Sendable {
    let read: @Sendable (ScenarioSettings) -> ValueTree
    /// Ignores a value of the wrong type (the validator reports those before writing).
    let write: @Sendable (inout ScenarioSettings, ValueTree) -> Void
}

public indirect enum FieldKind: Sendable {
    case integer(range: ClosedRange<Int64>)
    case number(range: ClosedRange<Double>)
    case boolean
    case text
    /// A UTC calendar date written YYYY-MM-DD.
    case date
    case choice(allowed: [String])
    /// A nested block; `check` validates relations between its keys (e.g. shares summing to 1) on the
    /// typed settings, after every key of the block (and a chosen preset) is in place.
    case section([Field], check: (@Sendable (ScenarioSettings) -> String?)? = nil)

    /// What the field accepts, phrased for error messages and the reference.
    public var allowed: String {
        switch self {
        case .integer(let r): return "an integer from \(r.lowerBound) to \(r.upperBound)"
        case .number(let r): return "a number from \(ValueTree.format(r.lowerBound)) to \(ValueTree.format(r.upperBound))"
        case .boolean: return "true or false"
        case .text: return "a text"
        case .date: return "a date YYYY-MM-DD"
        case .choice(let allowed): return "one of " + allowed.joined(separator: ", ")
        case .section(let fields, _):
            return fields.isEmpty ? "an empty block (no keys yet)" : "a block with keys " + fields.map(\.name).joined(separator: ", ")
        }
    }
}
