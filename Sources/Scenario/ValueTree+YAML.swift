/// A resolved scenario written back as a scenario file: every key explicit, in schema order, so that
/// loading the text gives the same resolved tree. A sweep writes one per run; the run's identity is
/// the hash of these bytes, so the text must depend on nothing but the tree.
extension ValueTree {
    public var scenarioYAML: String {
        var out = ""
        Self.writeYAML(self, indent: 0, into: &out)
        return out
    }

    static func writeYAML(_ tree: ValueTree, indent: Int, into out: inout String) {
        guard case .section(let entries) = tree else { return }
        let pad = String(repeating: "  ", count: indent)
        for (key, value) in entries {
            switch value {
            case .section(let children) where children.isEmpty:
                out += "\(pad)\(key): {}\n"
            case .section:
                out += "\(pad)\(key):\n"
                writeYAML(value, indent: indent + 1, into: &out)
            case .null:
                continue  // an absent optional: the default applies
            default:
                out += "\(pad)\(key): \(yamlScalar(value))\n"
            }
        }
    }

    /// One value as a YAML scalar: numbers in Swift's shortest round-trip form (so `0.1` stays `0.1`),
    /// text double-quoted with escapes (a name such as `yes` or `1.0` stays text).
    static func yamlScalar(_ value: ValueTree) -> String {
        switch value {
        case .integer(let v): return String(v)
        case .number(let v): return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) + ".0" : "\(v)"
        case .boolean(let v): return v ? "true" : "false"
        case .text(let v): return quoted(v)
        case .null: return "null"
        case .array(let items): return "[" + items.map(yamlScalar).joined(separator: ", ") + "]"
        case .section(let entries): return "{" + entries.map { "\($0.0): \(yamlScalar($0.1))" }.joined(separator: ", ") + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
