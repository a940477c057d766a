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
    var defaultValue: ScenarioValue? { slot?.read(.default) }
}

/// Reads and writes one key's value in the typed settings, converting units where the file's
/// differ from the model's.
struct Slot: Sendable {
    let read: @Sendable (ScenarioSettings) -> ScenarioValue
    /// Ignores a value of the wrong type (the validator reports those before writing).
    let write: @Sendable (inout ScenarioSettings, ScenarioValue) -> Void
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
        case .number(let r): return "a number from \(ScenarioValue.format(r.lowerBound)) to \(ScenarioValue.format(r.upperBound))"
        case .boolean: return "true or false"
        case .text: return "a text"
        case .date: return "a date YYYY-MM-DD"
        case .choice(let allowed): return "one of " + allowed.joined(separator: ", ")
        case .section(let fields, _):
            return fields.isEmpty ? "an empty block (no keys yet)" : "a block with keys " + fields.map(\.name).joined(separator: ", ")
        }
    }
}

/// A resolved scenario value: what the file said, with defaults filled in.
public indirect enum ScenarioValue: Equatable, Sendable {
    case integer(Int64)
    case number(Double)
    case boolean(Bool)
    case text(String)
    /// Keys in schema order.
    case section([(String, ScenarioValue)])

    public static func == (a: ScenarioValue, b: ScenarioValue) -> Bool {
        switch (a, b) {
        case let (.integer(x), .integer(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.boolean(x), .boolean(y)): return x == y
        case let (.text(x), .text(y)): return x == y
        case let (.section(x), .section(y)): return x.map(\.0) == y.map(\.0) && zip(x, y).allSatisfy { $0.1 == $1.1 }
        default: return false
        }
    }

    public subscript(key: String) -> ScenarioValue? {
        guard case .section(let entries) = self else { return nil }
        return entries.first { $0.0 == key }?.1
    }

    /// The value at a dotted path such as `population.size`.
    public func at(_ path: String) -> ScenarioValue? {
        path.split(separator: ".").reduce(Optional(self)) { value, key in value?[String(key)] }
    }

    public var intValue: Int64? { if case .integer(let v) = self { return v }; return nil }
    public var doubleValue: Double? {
        switch self {
        case .number(let v): return v
        case .integer(let v): return Double(v)
        default: return nil
        }
    }
    public var boolValue: Bool? { if case .boolean(let v) = self { return v }; return nil }
    public var textValue: String? { if case .text(let v) = self { return v }; return nil }

    /// Replaces the value at a dotted path (for command-line overrides).
    public func replacing(_ path: [String], with newValue: ScenarioValue) -> ScenarioValue {
        guard let head = path.first else { return newValue }
        guard case .section(let entries) = self else { return self }
        return .section(entries.map { $0.0 == head ? ($0.0, $0.1.replacing(Array(path.dropFirst()), with: newValue)) : $0 })
    }

    /// Plain Foundation-compatible form, for JSON manifests.
    public var jsonObject: Any {
        switch self {
        case .integer(let v): return v
        case .number(let v): return v
        case .boolean(let v): return v
        case .text(let v): return v
        case .section(let entries): return Dictionary(uniqueKeysWithValues: entries.map { ($0.0, $0.1.jsonObject) })
        }
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
    }
}
