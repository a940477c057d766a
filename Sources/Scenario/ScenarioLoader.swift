import EventEngine
import Foundation
import Yams

/// A validated scenario: its typed settings, the resolved values (defaults filled in) and where they came from.
public struct LoadedScenario: Sendable {
    public let file: String
    public let sourceBytes: Data
    public let settings: ScenarioSettings
    /// Every key with its value, in schema order (the manifest's resolved scenario).
    public let resolved: ValueTree

    public var name: String { settings.name ?? "scenario" }
}

/// Reads a YAML scenario and checks every key against `ScenarioSchema`.
public enum ScenarioLoader {
    public static func load(file: String) throws(ScenarioError) -> LoadedScenario {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            let reason = FileManager.default.fileExists(atPath: file) ? "cannot be read" : "no such file"
            let message = "\(reason); pass the path of a scenario YAML file, e.g. Scenarios/default.yaml"
            throw ScenarioError(problems: [ScenarioProblem(file: file, message: message)])
        }
        // UTF-16 text of ASCII characters is valid UTF-8 with a NUL after every letter: refuse it by its NULs.
        guard let text = String(data: data, encoding: .utf8), !data.contains(0) else {
            let hint = data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) || data.contains(0)
                ? " (it looks like UTF-16 or binary: save it as UTF-8)" : ""
            throw ScenarioError(problems: [ScenarioProblem(file: file, message: "is not UTF-8 text\(hint); a scenario is a YAML file")])
        }
        let stem = TextForm.sanitizedName(URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
        var settings = try settings(yaml: text, file: file, defaultName: stem)
        try ScenarioSchema.resolvingPaths(&settings, file: file)
        return LoadedScenario(file: file, sourceBytes: data, settings: settings, resolved: ValueTree(settings))
    }

    /// The resolved scenario of a YAML text (paths left as written).
    public static func parse(yaml: String, file: String, defaultName: String) throws(ScenarioError) -> ValueTree {
        ValueTree(try settings(yaml: yaml, file: file, defaultName: defaultName))
    }

    /// Validates a YAML text into typed settings, reporting every problem.
    public static func settings(yaml: String, file: String, defaultName: String) throws(ScenarioError) -> ScenarioSettings {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw ScenarioError(problems: [yamlProblem(error, file: file)])
        } catch {
            throw ScenarioError(problems: [ScenarioProblem(file: file, message: "YAML syntax error: \(error)")])
        }
        return try settings(root: root, file: file, defaultName: defaultName)
    }

    /// Validates a composed YAML tree into typed settings (a sweep's runs: the base file's tree with keys set).
    static func settings(root: Node?, file: String, defaultName: String) throws(ScenarioError) -> ScenarioSettings {
        var validator = Validator(file: file)
        validator.section(ScenarioSchema.fields, check: nil, node: root, path: [])
        if !validator.problems.isEmpty { throw ScenarioError(problems: validator.problems) }
        var settings = validator.settings
        if settings.name == nil { settings.name = defaultName }
        return settings
    }

    static func yamlProblem(_ error: YamlError, file: String) -> ScenarioProblem {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            let what = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            return ScenarioProblem(file: file, line: mark.line, column: mark.column, message: "YAML syntax error: \(what)")
        case let .duplicatedKeysInMapping(duplicates, context):
            // Yams points at the first occurrence: find the repeat, and the path to it, in the text.
            let first = DuplicateKeyLocator.Position(line: context.mark.line, column: context.mark.column)
            if let key = duplicates.first, let found = DuplicateKeyLocator.locate(key: key, first: first, in: context.text) {
                return ScenarioProblem(file: file, line: found.line, column: found.column,
                                       path: (found.parents + [ScenarioProblem.echo(key)]).joined(separator: "."),
                                       message: "duplicate key (first at line \(first.line)); each key may appear once")
            }
            return ScenarioProblem(file: file, line: context.mark.line, column: context.mark.column,
                                   message: "duplicate key \(duplicates.map { ScenarioProblem.echo($0) }.joined(separator: ", ")); each key may appear once")
        default:
            return ScenarioProblem(file: file, message: "YAML error: \(error)")
        }
    }
}

/// Walks the YAML tree beside the schema, writing each valid value into the settings (a section's
/// keys in schema order, so a preset is loaded before the keys that override it) and collecting every problem.
struct Validator {
    let file: String
    var settings = ScenarioSettings()
    var problems: [ScenarioProblem] = []

    mutating func report(_ node: Node?, _ path: [String], _ message: String) {
        problems.append(ScenarioProblem(file: file, line: node?.mark?.line, column: node?.mark?.column,
                                        path: path.joined(separator: "."), message: message))
    }

    mutating func section(_ fields: [Field], check: (@Sendable (ScenarioSettings) -> String?)?, node: Node?, path: [String]) {
        var given: [String: Node] = [:]
        if let node, !isNull(node) {
            if case .mapping(let mapping) = node {
                for (keyNode, valueNode) in mapping {
                    guard let key = keyNode.scalar?.string else {
                        report(keyNode, path, "keys must be plain names")
                        continue
                    }
                    if given[key] != nil {
                        report(keyNode, path + [ScenarioProblem.echo(key)], "duplicate key; each key may appear once")
                    } else if fields.contains(where: { $0.name == key }) {
                        given[key] = valueNode
                    } else {
                        report(keyNode, path + [ScenarioProblem.echo(key)], unknownKeyMessage(key, fields: fields))
                    }
                }
            } else {
                let kind = FieldKind.section(fields)
                report(node, path, "expected \(kind.allowed), got \(describe(node))")
            }
        }
        for field in fields {
            if case .section(let children, let check) = field.kind {
                section(children, check: check, node: given[field.name], path: path + [field.name])
            } else if let node = given[field.name], let value = value(of: field, node: node, path: path + [field.name]) {
                field.slot?.write(&settings, value)
            }
        }
        if let check, let message = check(settings) {
            report(node, path, message)
        }
    }

    func unknownKeyMessage(_ key: String, fields: [Field]) -> String {
        if fields.isEmpty { return "unknown key; this block has no keys yet" }
        let hint = DidYouMean.suggestion(for: key, among: fields.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown key\(hint); allowed keys: " + fields.map(\.name).joined(separator: ", ")
    }

    /// The given value, or nil (reported) when it has the wrong type or is not allowed. Values out of
    /// range are reported and returned, so the block's checks still see them.
    mutating func value(of field: Field, node: Node, path: [String]) -> ValueTree? {
        let allowed = field.kind.allowed + (field.unit.map { " (\($0))" } ?? "")
        guard let scalar = node.scalar, !isNull(node) else {
            report(node, path, isNull(node) ? "missing value; expected \(allowed)" : "expected \(allowed), got \(describe(node))")
            return nil
        }
        let text = scalar.string
        // `days: !!str 3` is as much a text as `days: "3"`: both are refused for a number.
        let plain = scalar.style == .plain && Self.explicitTag(scalar).map(field.kind.acceptsTag) ?? true
        switch field.kind {
        case .integer(let range):
            guard plain, let v = Int64(text.replacingOccurrences(of: "_", with: "")) else {
                report(node, path, "expected \(allowed), got \(describe(node))")
                return nil
            }
            if !range.contains(v) { report(node, path, "\(v) is out of range; expected \(allowed)") }
            return .integer(v)
        case .number(let range):
            guard plain, let v = Double(text.replacingOccurrences(of: "_", with: "")), v.isFinite else {
                report(node, path, "expected \(allowed), got \(describe(node))")
                return nil
            }
            if !range.contains(v) { report(node, path, "\(ValueTree.format(v)) is out of range; expected \(allowed)") }
            return .number(v)
        case .boolean:
            guard plain, text == "true" || text == "false" else {
                report(node, path, "expected \(allowed), got \(describe(node))")
                return nil
            }
            return .boolean(text == "true")
        case .text(let form):
            if let problem = form.problem(text) {
                report(node, path, "\(problem), got \(describe(node))")
                return nil
            }
            return .text(text)
        case .date(let range):
            guard let date = CivilCalendar.parseISODate(text) else {
                report(node, path, "expected \(allowed) (a real calendar date), got \(describe(node))")
                return nil
            }
            if !range.contains(date) {
                report(node, path, "\(text) is out of range; expected \(allowed)")
                return nil
            }
            return .text(text)
        case .choice(let allowedValues):
            guard allowedValues.contains(text) else {
                let hint = DidYouMean.suggestion(for: text, among: allowedValues).map { " (did you mean '\($0)'?)" } ?? ""
                report(node, path, "'\(ScenarioProblem.echo(text))' is not allowed\(hint); expected \(allowed)")
                return nil
            }
            return .text(text)
        case .section:
            return nil
        }
    }

    func isNull(_ node: Node) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s):
            let shown = ScenarioProblem.echo(s.string)
            if let tag = Self.explicitTag(s) { return "a value tagged \(Self.shortTag(tag)) (\(shown))" }
            return s.style == .plain ? shown : "\"\(shown)\""
        case .mapping: return "a block of keys"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    /// The tag written before a plain scalar (`!!str 3`), or nil when its type comes from how it is written.
    static func explicitTag(_ scalar: Node.Scalar) -> String? {
        guard scalar.style == .plain else { return nil }
        let tag = scalar.tag.description
        let implied = Resolver.default.resolveTag(of: .scalar(.init(scalar.string))).rawValue
        return tag.isEmpty || tag == "!" || tag == implied ? nil : tag
    }

    static func shortTag(_ tag: String) -> String {
        tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst("tag:yaml.org,2002:".count) : tag
    }
}
