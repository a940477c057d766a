import Foundation
import HealthBackend
import Scenario

/// Deterministic JSON for reports: keys in the order the results encode them, numbers in
/// Swift's shortest round-trip form, so equal results give byte-identical files.
public enum JSONReport {
    /// Any typed result (a run's `RunSummary`, a stage's summary) through the report tree.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        encode(try OrderedTreeEncoder().encode(value))
    }

    public static func encode(_ value: ValueTree) -> Data {
        var out = ""
        write(value, indent: 0, into: &out)
        out += "\n"
        return Data(out.utf8)
    }

    static func write(_ value: ValueTree, indent: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: indent + 1), closePad = String(repeating: "  ", count: indent)
        switch value {
        case .integer(let v): out += String(v)
        case .number(let v): out += v.isFinite ? (v == v.rounded() && abs(v) < 1e15 ? String(format: "%.1f", v) : "\(v)") : "null"
        case .boolean(let v): out += v ? "true" : "false"
        case .text(let v): out += quote(v)
        case .null: out += "null"
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                write(item, indent: indent + 1, into: &out)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += closePad + "]"
        case .section(let entries):
            if entries.isEmpty { out += "{}"; return }
            out += "{\n"
            for (i, (key, item)) in entries.enumerated() {
                out += pad + quote(key) + ": "
                write(item, indent: indent + 1, into: &out)
                out += i + 1 < entries.count ? ",\n" : "\n"
            }
            out += closePad + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
