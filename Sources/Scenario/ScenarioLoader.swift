import EventEngine
import Foundation
import Yams

/// A validated scenario: the resolved values (defaults filled in) and where they came from.
public struct LoadedScenario: Sendable {
    public let file: String
    public let sourceBytes: Data
    public let resolved: ScenarioValue

    public var name: String { resolved["name"]?.textValue ?? "scenario" }
}

/// Reads a YAML scenario and checks every key against `ScenarioSchema`.
public enum ScenarioLoader {
    public static func load(file: String, schema: [Field] = ScenarioSchema.fields) throws(ScenarioError) -> LoadedScenario {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            let reason = FileManager.default.fileExists(atPath: file) ? "cannot be read" : "no such file"
            throw ScenarioError(problems: [ScenarioProblem(file: file, message: "\(reason); pass the path of a scenario YAML file, e.g. Scenarios/default.yaml")])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError(problems: [ScenarioProblem(file: file, message: "is not UTF-8 text; a scenario is a YAML file")])
        }
        let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let resolved = try ScenarioSchema.resolvingPaths(parse(yaml: text, file: file, defaultName: stem, schema: schema), file: file)
        return LoadedScenario(file: file, sourceBytes: data, resolved: resolved)
    }

    public static func parse(yaml: String, file: String, defaultName: String, schema: [Field] = ScenarioSchema.fields) throws(ScenarioError) -> ScenarioValue {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw ScenarioError(problems: [yamlProblem(error, file: file)])
        } catch {
            throw ScenarioError(problems: [ScenarioProblem(file: file, message: "YAML syntax error: \(error)")])
        }
        var validator = Validator(file: file, defaultName: defaultName)
        let value = validator.section(schema, check: nil, node: root, path: [])
        if !validator.problems.isEmpty { throw ScenarioError(problems: validator.problems) }
        return DetectionPresetResolver.resolve(value, root: root)
    }

    static func yamlProblem(_ error: YamlError, file: String) -> ScenarioProblem {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            let what = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            return ScenarioProblem(file: file, line: mark.line, column: mark.column, message: "YAML syntax error: \(what)")
        case let .duplicatedKeysInMapping(duplicates, context):
            return ScenarioProblem(file: file, line: context.mark.line, column: context.mark.column,
                                   message: "duplicate key \(duplicates.joined(separator: ", ")); each key may appear once")
        default:
            return ScenarioProblem(file: file, message: "YAML error: \(error)")
        }
    }
}

/// Walks the YAML tree beside the schema, collecting every problem.
struct Validator {
    let file: String
    let defaultName: String
    var problems: [ScenarioProblem] = []

    mutating func report(_ node: Node?, _ path: [String], _ message: String) {
        problems.append(ScenarioProblem(file: file, line: node?.mark?.line, column: node?.mark?.column,
                                        path: path.joined(separator: "."), message: message))
    }

    mutating func section(_ fields: [Field], check: (@Sendable (ScenarioValue) -> String?)?, node: Node?, path: [String]) -> ScenarioValue {
        var given: [String: Node] = [:]
        if let node, !isNull(node) {
            if case .mapping(let mapping) = node {
                for (keyNode, valueNode) in mapping {
                    guard let key = keyNode.scalar?.string else {
                        report(keyNode, path, "keys must be plain names")
                        continue
                    }
                    if given[key] != nil {
                        report(keyNode, path + [key], "duplicate key; each key may appear once")
                    } else if fields.contains(where: { $0.name == key }) {
                        given[key] = valueNode
                    } else {
                        report(keyNode, path + [key], unknownKeyMessage(key, fields: fields))
                    }
                }
            } else {
                let kind = FieldKind.section(fields)
                report(node, path, "expected \(kind.allowed), got \(describe(node))")
            }
        }
        let value = ScenarioValue.section(fields.map { field in
            (field.name, self.value(of: field, node: given[field.name], path: path + [field.name]))
        })
        if let check, let message = check(value) {
            report(node, path, message)
        }
        return value
    }

    func unknownKeyMessage(_ key: String, fields: [Field]) -> String {
        if fields.isEmpty { return "unknown key; this block has no keys yet" }
        let hint = DidYouMean.suggestion(for: key, among: fields.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown key\(hint); allowed keys: " + fields.map(\.name).joined(separator: ", ")
    }

    mutating func value(of field: Field, node: Node?, path: [String]) -> ScenarioValue {
        if case .section(let fields, let check) = field.kind {
            return section(fields, check: check, node: node, path: path)
        }
        guard let node else { return defaultValue(field.kind) }
        let allowed = field.kind.allowed + (field.unit.map { " (\($0))" } ?? "")
        guard let scalar = node.scalar, !isNull(node) else {
            report(node, path, isNull(node) ? "missing value; expected \(allowed)" : "expected \(allowed), got \(describe(node))")
            return defaultValue(field.kind)
        }
        let text = scalar.string
        let plain = scalar.style == .plain
        switch field.kind {
        case .integer(_, let range):
            guard plain, let v = Int64(text.replacingOccurrences(of: "_", with: "")) else {
                report(node, path, "expected \(allowed), got \(describe(node))")
                return defaultValue(field.kind)
            }
            if !range.contains(v) { report(node, path, "\(v) is out of range; expected \(allowed)") }
            return .integer(v)
        case .number(_, let range):
            guard plain, let v = Double(text.replacingOccurrences(of: "_", with: "")), v.isFinite else {
                report(node, path, "expected \(allowed), got \(describe(node))")
                return defaultValue(field.kind)
            }
            if !range.contains(v) { report(node, path, "\(ScenarioValue.format(v)) is out of range; expected \(allowed)") }
            return .number(v)
        case .boolean:
            guard plain, text == "true" || text == "false" else {
                report(node, path, "expected \(allowed), got \(describe(node))")
                return defaultValue(field.kind)
            }
            return .boolean(text == "true")
        case .text:
            return .text(text)
        case .date:
            guard CivilCalendar.parseISODate(text) != nil else {
                report(node, path, "expected \(allowed) (a real calendar date), got \(describe(node))")
                return defaultValue(field.kind)
            }
            return .text(text)
        case .choice(_, let allowedValues):
            guard allowedValues.contains(text) else {
                let hint = DidYouMean.suggestion(for: text, among: allowedValues).map { " (did you mean '\($0)'?)" } ?? ""
                report(node, path, "'\(text)' is not allowed\(hint); expected \(allowed)")
                return defaultValue(field.kind)
            }
            return .text(text)
        case .section:
            fatalError("sections are handled above")
        }
    }

    func defaultValue(_ kind: FieldKind) -> ScenarioValue {
        switch kind {
        case .integer(let d, let range): return .integer(d ?? range.lowerBound)
        case .number(let d, _): return .number(d)
        case .boolean(let d): return .boolean(d)
        case .text(let d): return .text(d ?? defaultName)
        case .date(let d): return .text(d)
        case .choice(let d, _): return .text(d)
        case .section(let fields, _):
            return .section(fields.map { ($0.name, defaultValue($0.kind)) })
        }
    }

    func isNull(_ node: Node) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s): return s.style == .plain ? s.string : "\"\(s.string)\""
        case .mapping: return "a block of keys"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }
}
