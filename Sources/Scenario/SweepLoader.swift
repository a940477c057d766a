import Foundation
import Yams

/// Reads and validates a sweep file, reporting each problem as one line `FILE:LINE:COLUMN: path: message`,
/// and expands it into runs.
public enum SweepLoader {
    static let topKeys = ["name", "base", "replicates", "grid", "zip", "set", "metrics"]
    public static let replicateRange = 1...1000
    /// A sweep beyond this many runs is almost certainly a mistake (a step too small).
    public static let maxRuns = 100_000

    /// Whether a YAML file is a sweep (it names a `base` scenario) rather than a scenario.
    public static func isSweep(file: String) -> Bool {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8), let root = try? Yams.compose(yaml: text),
              case .mapping(let mapping) = root else { return false }
        return mapping.keys.contains { $0.scalar?.string == "base" }
    }

    public static func load(file: String) throws(ScenarioError) -> SweepFile {
        guard let data = FileManager.default.contents(atPath: file) else {
            let reason = FileManager.default.fileExists(atPath: file) ? "cannot be read" : "no such file"
            throw ScenarioError(problems: [ScenarioProblem(file: file, message: "\(reason); pass the path of a sweep YAML file, e.g. Scenarios/sweeps/adoption.yaml")])
        }
        guard let text = String(data: data, encoding: .utf8), !data.contains(0) else {
            throw ScenarioError(problems: [ScenarioProblem(file: file, message: "is not UTF-8 text; a sweep is a YAML file")])
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ScenarioError(problems: [ScenarioLoader.yamlProblem(error, file: file)])
        } catch {
            throw ScenarioError(problems: [ScenarioProblem(file: file, message: "YAML syntax error: \(error)")])
        }
        var reader = SweepReader(file: file)
        let stem = TextForm.sanitizedName(URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
        return try reader.read(root, data: data, defaultName: stem)
    }
}

/// Walks a sweep file's YAML tree, collecting every problem before giving up.
struct SweepReader {
    let file: String
    var validator: Validator
    var problems: [ScenarioProblem] { validator.problems }

    init(file: String) {
        self.file = file
        validator = Validator(file: file)
    }

    mutating func report(_ node: Node?, _ path: String, _ message: String) {
        validator.report(node, path.isEmpty ? [] : [path], message)
    }

    mutating func read(_ root: Node?, data: Data, defaultName: String) throws(ScenarioError) -> SweepFile {
        guard let root, case .mapping(let mapping) = root else {
            throw ScenarioError(problems: [ScenarioProblem(file: file, line: root?.mark?.line, column: root?.mark?.column,
                                                           message: "expected a block with keys \(SweepLoader.topKeys.joined(separator: ", "))")])
        }
        var given: [String: Node] = [:]
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else { report(keyNode, "", "keys must be plain names"); continue }
            if !SweepLoader.topKeys.contains(key) {
                let hint = DidYouMean.suggestion(for: key, among: SweepLoader.topKeys).map { " (did you mean '\($0)'?)" } ?? ""
                report(keyNode, ScenarioProblem.echo(key), "unknown key\(hint); allowed keys: " + SweepLoader.topKeys.joined(separator: ", "))
            } else if given[key] != nil {
                report(keyNode, key, "duplicate key; each key may appear once")
            } else {
                given[key] = value
            }
        }

        let name = text(given["name"], path: "name", form: .name) ?? defaultName
        let replicates = integer(given["replicates"], path: "replicates", range: SweepLoader.replicateRange) ?? 1

        var base: LoadedScenario?
        if let baseNode = given["base"], let relative = text(baseNode, path: "base", form: .path) {
            let path = relative.hasPrefix("/") ? relative
                : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(relative).standardizedFileURL.path
            do {
                base = try ScenarioLoader.load(file: path)
            } catch {
                report(baseNode, "base", "the base scenario is not valid: " + error.problems.map(\.description).joined(separator: "; "))
            }
        } else if given["base"] == nil {
            report(root, "", "missing key 'base': the scenario file the sweep varies, relative to this file")
        }

        var seen: [String: Node] = [:]
        let fixed = setBlock(given["set"], seen: &seen)
        var dimensions = gridBlock(given["grid"], seen: &seen)
        if let zipped = zipBlock(given["zip"], seen: &seen) { dimensions.append(zipped) }
        let metrics = metricList(given["metrics"])

        let points = dimensions.reduce(1) { $0 * $1.levels.count }
        if points * replicates > SweepLoader.maxRuns {
            report(given["grid"] ?? root, "grid", "expands to \(points * replicates) runs; at most \(SweepLoader.maxRuns) are allowed")
        }
        guard problems.isEmpty, let base else { throw ScenarioError(problems: problems) }
        let runs = try expand(base: base, fixed: fixed, dimensions: dimensions, replicates: replicates, anchor: given["grid"] ?? given["zip"] ?? root)
        return SweepFile(file: file, sourceBytes: data, name: name, base: base, replicates: replicates,
                         fixed: fixed.map { ($0.key, $0.value) }, dimensions: dimensions.map(\.dimension), metrics: metrics, runs: runs)
    }

    // MARK: - Blocks

    struct Override {
        let key: String
        let field: Field
        let value: ValueTree
        let node: Node
    }

    struct Axis {
        let keys: [(key: String, field: Field)]
        let levels: [[(value: ValueTree, node: Node)]]
        var dimension: SweepDimension { SweepDimension(keys: keys.map(\.key), levels: levels.map { $0.map(\.value) }) }
    }

    mutating func setBlock(_ node: Node?, seen: inout [String: Node]) -> [Override] {
        var out: [Override] = []
        for (keyNode, valueNode) in entries(node, block: "set") {
            guard let (key, field) = keyPath(keyNode, block: "set", seen: &seen) else { continue }
            if let value = validator.value(of: field, node: valueNode, path: ["set", key]) {
                out.append(Override(key: key, field: field, value: value, node: valueNode))
            }
        }
        return out
    }

    mutating func gridBlock(_ node: Node?, seen: inout [String: Node]) -> [Axis] {
        var axes: [Axis] = []
        for (keyNode, valueNode) in entries(node, block: "grid") {
            guard let (key, field) = keyPath(keyNode, block: "grid", seen: &seen) else { continue }
            guard let levels = values(of: field, node: valueNode, path: "grid.\(key)", rangeAllowed: true) else { continue }
            axes.append(Axis(keys: [(key, field)], levels: levels.map { [$0] }))
        }
        return axes
    }

    mutating func zipBlock(_ node: Node?, seen: inout [String: Node]) -> Axis? {
        var keys: [(String, Field)] = []
        var columns: [[(value: ValueTree, node: Node)]] = []
        var firstCount: (count: Int, key: String)?
        for (keyNode, valueNode) in entries(node, block: "zip") {
            guard let (key, field) = keyPath(keyNode, block: "zip", seen: &seen) else { continue }
            guard let values = values(of: field, node: valueNode, path: "zip.\(key)", rangeAllowed: true) else { continue }
            if let firstCount, firstCount.count != values.count {
                report(valueNode, "zip.\(key)", "has \(values.count) values but zip.\(firstCount.key) has \(firstCount.count); zipped keys vary together, so their lists must be as long")
                continue
            }
            firstCount = firstCount ?? (values.count, key)
            keys.append((key, field))
            columns.append(values)
        }
        guard let count = firstCount?.count, !keys.isEmpty else { return nil }
        return Axis(keys: keys, levels: (0..<count).map { i in columns.map { $0[i] } })
    }

    mutating func metricList(_ node: Node?) -> [SweepMetric] {
        guard let node, !validator.isNull(node) else { return SweepMetric.defaults.compactMap(SweepMetric.init) }
        guard case .sequence(let items) = node, !items.isEmpty else {
            report(node, "metrics", "expected a list of summary.json paths such as [detection.precision, detection.notified / health.index_cases], got \(validator.describe(node))")
            return []
        }
        var out: [SweepMetric] = []
        for item in items {
            guard let text = item.scalar?.string, var metric = SweepMetric(text), !text.unicodeScalars.contains(where: ScenarioProblem.isControl) else {
                report(item, "metrics", "expected a dotted summary.json path (detection.recall) or a ratio of two (detection.notified / health.index_cases), got \(validator.describe(item))")
                continue
            }
            if out.contains(metric) { report(item, "metrics", "'\(ScenarioProblem.echo(text))' is listed twice"); continue }
            (metric.line, metric.column) = (item.mark?.line, item.mark?.column)
            out.append(metric)
        }
        return out
    }

    // MARK: - Pieces

    /// The key/value pairs of a block, reporting a block that is not a mapping.
    mutating func entries(_ node: Node?, block: String) -> [(Node, Node)] {
        guard let node, !validator.isNull(node) else { return [] }
        guard case .mapping(let mapping) = node else {
            report(node, block, "expected a block of scenario key paths (population.app_adoption: …), got \(validator.describe(node))")
            return []
        }
        return mapping.map { ($0.key, $0.value) }
    }

    /// The value field a dotted key path names, or nil (reported).
    mutating func keyPath(_ keyNode: Node, block: String, seen: inout [String: Node]) -> (String, Field)? {
        guard let key = keyNode.scalar?.string else { report(keyNode, block, "keys must be dotted scenario key paths"); return nil }
        let shown = "\(block).\(ScenarioProblem.echo(key))"
        if key == "seed" {
            report(keyNode, shown, "the seed is set per replicate (seeds derived from the base scenario's seed); use replicates: N")
            return nil
        }
        if let first = seen[key] {
            report(keyNode, shown, "this key is already varied or set (line \(first.mark?.line ?? 0)); each key may appear once across grid, zip and set")
            return nil
        }
        var fields = ScenarioSchema.fields
        var walked: [String] = []
        for part in key.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            guard let field = fields.first(where: { $0.name == part }) else {
                let hint = DidYouMean.suggestion(for: part, among: fields.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
                let within = walked.isEmpty ? "a scenario" : "'\(walked.joined(separator: "."))'"
                report(keyNode, shown, "unknown key path: \(within) has no key '\(ScenarioProblem.echo(part))'\(hint); allowed: "
                       + fields.map(\.name).joined(separator: ", "))
                return nil
            }
            walked.append(part)
            if case .section(let children, _) = field.kind {
                fields = children
                continue
            }
            guard walked.count == key.split(separator: ".", omittingEmptySubsequences: false).count else {
                report(keyNode, shown, "unknown key path: '\(walked.joined(separator: "."))' is a value, not a block")
                return nil
            }
            seen[key] = keyNode
            return (key, field)
        }
        report(keyNode, shown, "is a block, not a value; name one of its keys: " + fields.map { "\(key).\($0.name)" }.joined(separator: ", "))
        return nil
    }

    /// A key's values: a list, or `{from, to, step}` for numbers; nil when reported.
    mutating func values(of field: Field, node: Node, path: String, rangeAllowed: Bool) -> [(value: ValueTree, node: Node)]? {
        let before = problems.count
        var out: [(ValueTree, Node)] = []
        switch node {
        case .sequence(let items):
            for item in items {
                if let v = validator.value(of: field, node: item, path: [path]) { out.append((v, item)) }
            }
        case .mapping(let mapping):
            guard let generated = range(mapping, node: node, field: field, path: path) else { return nil }
            for item in generated {
                if let v = validator.value(of: field, node: item, path: [path]) { out.append((v, item)) }
            }
        default:
            report(node, path, "expected a list of values ([0.2, 0.4]) or a range ({from: 0.1, to: 0.8, step: 0.1}), got \(validator.describe(node))")
            return nil
        }
        guard problems.count == before else { return nil }
        if out.isEmpty {
            report(node, path, "has no values, so the sweep expands to zero runs; give at least one value")
            return nil
        }
        return out
    }

    /// `{from, to, step}` as scalar nodes carrying the range's position, or nil when reported.
    mutating func range(_ mapping: Node.Mapping, node: Node, field: Field, path: String) -> [Node]? {
        let isInteger: Bool
        switch field.kind {
        case .integer: isInteger = true
        case .number: isInteger = false
        default:
            report(node, path, "a range {from, to, step} needs a number key; list the values of this key instead (expected \(field.kind.allowed))")
            return nil
        }
        var bounds: [String: Double] = [:]
        for (keyNode, valueNode) in mapping {
            let key = keyNode.scalar?.string ?? ""
            guard ["from", "to", "step"].contains(key) else {
                report(keyNode, "\(path).\(ScenarioProblem.echo(key))", "unknown key; a range has keys from, to, step")
                continue
            }
            let text = valueNode.scalar?.string.replacingOccurrences(of: "_", with: "") ?? ""
            guard valueNode.scalar?.style == .plain, let v = Double(text), v.isFinite, !isInteger || Int64(text) != nil else {
                report(valueNode, "\(path).\(key)", "expected \(isInteger ? "an integer" : "a number"), got \(validator.describe(valueNode))")
                continue
            }
            bounds[key] = v
        }
        guard let from = bounds["from"], let to = bounds["to"], let step = bounds["step"] else {
            if bounds.count == mapping.count {
                report(node, path, "a range needs from, to and step")
            }
            return nil
        }
        guard step > 0 else { report(node, "\(path).step", "must be above 0"); return nil }
        guard to >= from else {
            report(node, path, "from \(ValueTree.format(from)) is above to \(ValueTree.format(to)), so the sweep expands to zero runs")
            return nil
        }
        let steps = ((to - from) / step * (1 + 1e-12)).rounded(.down)
        guard steps < Double(SweepLoader.maxRuns) else {
            report(node, path, "has \(ValueTree.format(steps + 1)) values; at most \(SweepLoader.maxRuns) runs are allowed")
            return nil
        }
        return (0...Int(steps)).map { i in
            let v = from + Double(i) * step
            // 0.1 + 2 × 0.1 is 0.30000000000000004: keep 12 significant digits, as a person would write it.
            let text = isInteger ? String(Int64(v.rounded())) : "\(Double(String(format: "%.12g", v))!)"
            return .scalar(Node.Scalar(text, .implicit, .plain, node.mark))
        }
    }

    mutating func text(_ node: Node?, path: String, form: TextForm) -> String? {
        guard let node else { return nil }
        let field = Field(path, .text(form), doc: "", slot: nil)
        return validator.value(of: field, node: node, path: [path])?.textValue
    }

    mutating func integer(_ node: Node?, path: String, range: ClosedRange<Int>) -> Int? {
        guard let node else { return nil }
        let field = Field(path, .integer(range: Int64(range.lowerBound)...Int64(range.upperBound)), doc: "", slot: nil)
        let before = problems.count
        let value = validator.value(of: field, node: node, path: [path])?.intValue.map(Int.init)
        return problems.count == before ? value : nil
    }

    // MARK: - Expansion

    /// One resolved scenario per grid point (the base file's tree with the keys set, validated as a whole,
    /// so relations between keys are checked too), then one run per replicate seed.
    func expand(base: LoadedScenario, fixed: [Override], dimensions: [Axis], replicates: Int, anchor: Node) throws(ScenarioError) -> [SweepRun] {
        let baseRoot = (try? Yams.compose(yaml: String(decoding: base.sourceBytes, as: UTF8.self))) ?? nil
        let points = dimensions.reduce(1) { $0 * $1.levels.count }
        let pointWidth = max(2, String(points - 1).count), replicateWidth = max(1, String(replicates).count)
        let baseSeed = base.settings.seed
        var runs: [SweepRun] = []
        runs.reserveCapacity(points * replicates)
        var problems: [ScenarioProblem] = []
        for point in 0..<points {
            var rest = point
            var chosen: [[(value: ValueTree, node: Node)]] = Array(repeating: [], count: dimensions.count)
            for d in dimensions.indices.reversed() {
                chosen[d] = dimensions[d].levels[rest % dimensions[d].levels.count]
                rest /= dimensions[d].levels.count
            }
            var root = baseRoot ?? .mapping(Node.Mapping([]))
            for override in fixed { root = Self.setting(root, path: override.key, to: override.node) }
            for (axis, level) in zip(dimensions, chosen) {
                for ((key, _), item) in zip(axis.keys, level) { root = Self.setting(root, path: key, to: item.node) }
            }
            let values = chosen.flatMap { $0.map(\.value) }
            let settings: ScenarioSettings
            do {
                var s = try ScenarioLoader.settings(root: root, file: base.file, defaultName: base.name)
                try ScenarioSchema.resolvingPaths(&s, file: base.file)
                settings = s
            } catch {
                let shown = zip(dimensions.flatMap { $0.keys.map(\.key) }, values).map { "\($0)=\(ValueTree.yamlScalar($1))" }.joined(separator: ", ")
                problems.append(ScenarioProblem(file: file, line: anchor.mark?.line, column: anchor.mark?.column, path: "grid",
                                                message: "point \(point) (\(shown)) is not a valid scenario: " + error.problems.map(\.description).joined(separator: "; ")))
                continue
            }
            let resolved = ValueTree(settings)
            for replicate in 1...replicates {
                let seed = SweepSeeds.seed(base: baseSeed, replicate: replicate)
                let id = "p" + Self.padded(point, pointWidth) + "-r" + Self.padded(replicate, replicateWidth)
                runs.append(SweepRun(id: id, point: point, replicate: replicate, seed: seed, values: values,
                                     resolved: resolved.replacing(["seed"], with: .integer(Int64(seed)))))
            }
        }
        if !problems.isEmpty { throw ScenarioError(problems: problems) }
        return runs
    }

    static func padded(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// `root` with the dotted key path set to `value`, creating blocks the base file leaves out.
    static func setting(_ root: Node, path: String, to value: Node) -> Node {
        set(root, Array(path.split(separator: ".").map(String.init)), value)
    }

    static func set(_ node: Node, _ path: [String], _ value: Node) -> Node {
        guard let head = path.first else { return value }
        var mapping: Node.Mapping
        if case .mapping(let m) = node { mapping = m } else { mapping = Node.Mapping([]) }
        let child = mapping[head] ?? .mapping(Node.Mapping([]))
        mapping[head] = set(child, Array(path.dropFirst()), value)
        return .mapping(mapping)
    }
}
