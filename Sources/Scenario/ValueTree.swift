import Foundation

/// The one value tree of ENSim: a resolved scenario (what the file said, with defaults filled in)
/// and what a report writes (JSONReport). Keys keep their order, so files read in the order the
/// schema or the summary gives; integers and numbers stay apart (`3` versus `3.0`).
public indirect enum ValueTree: Equatable, Sendable {
    case integer(Int64)
    case number(Double)
    case boolean(Bool)
    case text(String)
    case null
    /// Keys in order (schema order for scenarios, encode order for reports).
    case section([(String, ValueTree)])
    case array([ValueTree])

    public static func == (a: ValueTree, b: ValueTree) -> Bool {
        switch (a, b) {
        case let (.integer(x), .integer(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.boolean(x), .boolean(y)): return x == y
        case let (.text(x), .text(y)): return x == y
        case (.null, .null): return true
        case let (.array(x), .array(y)): return x == y
        case let (.section(x), .section(y)): return x.map(\.0) == y.map(\.0) && zip(x, y).allSatisfy { $0.1 == $1.1 }
        default: return false
        }
    }

    public subscript(key: String) -> ValueTree? {
        guard case .section(let entries) = self else { return nil }
        return entries.first { $0.0 == key }?.1
    }

    /// The value at a dotted path such as `population.size`.
    public func at(_ path: String) -> ValueTree? {
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
    public func replacing(_ path: [String], with newValue: ValueTree) -> ValueTree {
        guard let head = path.first else { return newValue }
        guard case .section(let entries) = self else { return self }
        return .section(entries.map { $0.0 == head ? ($0.0, $0.1.replacing(Array(path.dropFirst()), with: newValue)) : $0 })
    }

    /// Plain Foundation-compatible form (JSONSerialization); non-finite numbers become 0.
    public var jsonObject: Any {
        switch self {
        case .integer(let v): return v
        case .number(let v): return v.isFinite ? v : 0
        case .boolean(let v): return v
        case .text(let v): return v
        case .null: return NSNull()
        case .array(let items): return items.map(\.jsonObject)
        case .section(let entries): return Dictionary(entries.map { ($0.0, $0.1.jsonObject) }, uniquingKeysWith: { a, _ in a })
        }
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
    }
}
