import EventEngine

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
    case text(TextForm)
    /// A UTC calendar date written YYYY-MM-DD, within the calendar the model supports.
    case date(range: ClosedRange<CivilDate>)
    case choice(allowed: [String])
    /// A nested block; `check` validates relations between its keys (e.g. shares summing to 1) on the
    /// typed settings, after every key of the block (and a chosen preset) is in place.
    case section([Field], check: (@Sendable (ScenarioSettings) -> String?)? = nil)

    /// Whether an explicit YAML tag (`!!int 3`) agrees with this kind.
    func acceptsTag(_ tag: String) -> Bool {
        switch self {
        case .integer: return tag == "tag:yaml.org,2002:int"
        case .number: return tag == "tag:yaml.org,2002:float" || tag == "tag:yaml.org,2002:int"
        case .boolean: return tag == "tag:yaml.org,2002:bool"
        case .text, .date, .choice: return tag == "tag:yaml.org,2002:str"
        case .section: return false
        }
    }

    /// What the field accepts, phrased for error messages and the reference.
    public var allowed: String {
        switch self {
        case .integer(let r): return "an integer from \(r.lowerBound) to \(r.upperBound)"
        case .number(let r): return "a number from \(ValueTree.format(r.lowerBound)) to \(ValueTree.format(r.upperBound))"
        case .boolean: return "true or false"
        case .text(let form): return form.allowed
        case .date(let r): return "a date YYYY-MM-DD from \(r.lowerBound) to \(r.upperBound)"
        case .choice(let allowed): return "one of " + allowed.joined(separator: ", ")
        case .section(let fields, _):
            return fields.isEmpty ? "an empty block (no keys yet)" : "a block with keys " + fields.map(\.name).joined(separator: ", ")
        }
    }
}

/// What a text key may hold. Text ends up in folder names, paths and terminal messages, so no
/// form allows control characters.
public enum TextForm: Sendable {
    /// A name that becomes one folder name under Results/: letters, digits, `-`, `_` and `.`,
    /// not starting with `.` (no hidden folders, no `..`), at most `maxLength` characters.
    case name
    /// A file path, as the OS takes it, without control characters.
    case path

    public static let maxNameLength = 100
    /// Longer paths are mistakes, and their echo would not fit on one line.
    public static let maxPathLength = 1_024

    var allowed: String {
        switch self {
        case .name: return "a name of 1 to \(Self.maxNameLength) letters, digits, '-', '_' or '.', not starting with '.'"
        case .path: return "a file path of at most \(Self.maxPathLength) characters (no control characters)"
        }
    }

    /// Why `text` is not of this form, or nil when it is.
    func problem(_ text: String) -> String? {
        switch self {
        case .name:
            let allowedScalar: (Unicode.Scalar) -> Bool = { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
            if text.isEmpty || text.unicodeScalars.count > Self.maxNameLength || text.hasPrefix(".")
                || !text.unicodeScalars.allSatisfy(allowedScalar) {
                return "expected \(allowed)"
            }
            return nil
        case .path:
            return text.unicodeScalars.count > Self.maxPathLength || text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                ? "expected \(allowed)" : nil
        }
    }

    /// `text` made into a valid name (the default name from a file name such as `my scenario.yaml`).
    public static func sanitizedName(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            let ok = s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || "-_.".unicodeScalars.contains(s))
            scalars.append(ok ? s : "-")
        }
        var name = String(String(scalars).drop(while: { $0 == "." }).prefix(maxNameLength))
        if name.isEmpty { name = "scenario" }
        return name
    }
}
