import Foundation

/// A stored baseline of detection accuracy (Results/baselines/*.json), read as strictly as a
/// scenario: each problem is one line naming the file and the field.
public struct RegressionBaseline: Encodable, Equatable, Sendable {
    public var source: String
    public var preset: DetectionPreset
    public var counts: DetectionCounts

    /// Counts above this are not from any run ENSim can make, and would overflow the test's sums.
    public static let maxCount: Int64 = 1_000_000_000_000

    public init(source: String, preset: DetectionPreset, counts: DetectionCounts) {
        self.source = source
        self.preset = preset
        self.counts = counts
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case source, preset, notified
        case falsePositives = "false_positives"
        case closeContactsWithApp = "close_contacts_with_app"
        case falseNegatives = "false_negatives"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(source, forKey: .source)
        try c.encode(preset.rawValue, forKey: .preset)
        try c.encode(counts.notified, forKey: .notified)
        try c.encode(counts.falsePositives, forKey: .falsePositives)
        try c.encode(counts.closeContactsWithApp, forKey: .closeContactsWithApp)
        try c.encode(counts.falseNegatives, forKey: .falseNegatives)
    }

    /// Reads and checks a baseline file.
    public static func load(file: String) throws(BaselineProblem) -> RegressionBaseline {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
            throw BaselineProblem(file: file, field: nil, message: "cannot be read (\(error.localizedDescription)); create it with --update")
        }
        let object: [String: JSONScalar]
        do { object = try JSONDecoder().decode([String: JSONScalar].self, from: data) } catch {
            throw BaselineProblem(file: file, field: nil, message: "is not a JSON object of baseline fields; create it with --update")
        }
        switch check(object) {
        case .success(let baseline): return baseline
        case .failure(let problem): throw BaselineProblem(file: file, field: problem.field, message: problem.message)
        }
    }

    /// The baseline these fields describe, or the first thing wrong with them.
    static func check(_ object: [String: JSONScalar]) -> Result<RegressionBaseline, BaselineProblem> {
        func fail(_ field: String?, _ message: String) -> Result<RegressionBaseline, BaselineProblem> {
            .failure(BaselineProblem(file: "", field: field, message: message))
        }
        let known = CodingKeys.allCases.map(\.rawValue)
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            return fail(unknown, "unknown field; a baseline has " + known.joined(separator: ", "))
        }
        guard case .text(let source)? = object["source"] else {
            return fail("source", object["source"] == nil ? "missing; the scenario or run the baseline was made from" : "expected a text")
        }
        let presets = DetectionPreset.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .text(let presetName)? = object["preset"], let preset = DetectionPreset(rawValue: presetName) else {
            return fail("preset", "expected one of \(presets)")
        }
        var values: [CodingKeys: Int] = [:]
        for key in [CodingKeys.notified, .falsePositives, .closeContactsWithApp, .falseNegatives] {
            guard case .integer(let v)? = object[key.rawValue], (0...maxCount).contains(v) else {
                let got = object[key.rawValue].map { " (got \($0))" } ?? " (missing)"
                return fail(key.rawValue, "expected an integer from 0 to \(maxCount)\(got)")
            }
            values[key] = Int(v)
        }
        let counts = DetectionCounts(notified: values[.notified]!, falsePositives: values[.falsePositives]!,
                                     closeContactsWithApp: values[.closeContactsWithApp]!, falseNegatives: values[.falseNegatives]!)
        if counts.falsePositives > counts.notified {
            return fail("false_positives", "\(counts.falsePositives) exceeds notified (\(counts.notified)): false positives are notified phones")
        }
        if counts.falseNegatives > counts.closeContactsWithApp {
            return fail("false_negatives", "\(counts.falseNegatives) exceeds close_contacts_with_app (\(counts.closeContactsWithApp))")
        }
        if counts.notified == 0 && counts.closeContactsWithApp == 0 {
            return fail("notified", "the baseline measures nothing (no notified phones and no close contacts): it would pass any run")
        }
        return .success(RegressionBaseline(source: source, preset: preset, counts: counts))
    }
}

/// One thing wrong with a baseline, as one line: `FILE: FIELD: what is wrong`.
public struct BaselineProblem: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let field: String?
    public let message: String

    public var description: String { [file, field].compactMap { $0 }.joined(separator: ": ") + ": " + message }
}

/// A JSON value as a baseline field sees it.
enum JSONScalar: Decodable, Equatable, CustomStringConvertible {
    case integer(Int64), number(Double), boolean(Bool), text(String), other

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let v = try? c.decode(Int64.self) { self = .integer(v) }
        else if let v = try? c.decode(Double.self) { self = .number(v) }
        else if let v = try? c.decode(Bool.self) { self = .boolean(v) }
        else if let v = try? c.decode(String.self) { self = .text(v) }
        else { self = .other }
    }

    var description: String {
        switch self {
        case .integer(let v): return String(v)
        case .number(let v): return String(v)
        case .boolean(let v): return String(v)
        case .text(let v): return "\"\(v.prefix(40))\""
        case .other: return "a list or object"
        }
    }
}
