/// One thing wrong with a scenario file, printed as one line:
/// `FILE:LINE:COLUMN: FIELD.PATH: what is wrong and what is allowed`.
public struct ScenarioProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let column: Int?
    public let path: String
    public let message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, path: String = "", message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    public var description: String {
        var location = Self.escaped(file)
        if let line { location += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        let flat = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        let shownPath = Self.escaped(path)
        return path.isEmpty ? "\(location): \(Self.escaped(flat))" : "\(location): \(shownPath): \(Self.escaped(flat))"
    }

    /// A value from the file as a message shows it: control characters escaped (a terminal never
    /// receives the file's raw bytes) and at most `limit` characters, so a 4 MB value is one short line.
    public static func echo(_ value: String, limit: Int = 60) -> String {
        let count = value.count
        guard count > limit else { return escaped(value) }
        return escaped(String(value.prefix(limit))) + "… (\(count) characters)"
    }

    /// `text` with every control character (newlines, escape, NUL, C1) written as `\u{…}`.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) { out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" }
            else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}

/// Every problem found in one scenario file (validation reports them all, not just the first).
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    public let problems: [ScenarioProblem]
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// Suggests the closest known name for a misspelt key or choice.
enum DidYouMean {
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, word.count / 3) ? best.0 : nil
    }

    /// Levenshtein edit distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

import Foundation
