import Foundation

/// Finds, in block-style YAML, the repeat of a key that Yams reports only at its first occurrence,
/// and the parent keys above it, so the message names the line to fix and the key's full path.
enum DuplicateKeyLocator {
    struct Position: Equatable {
        let line: Int  // 1-based
        let column: Int  // 1-based
    }

    struct Found: Equatable {
        let line: Int
        let column: Int
        let parents: [String]
    }

    /// nil when the layout is not plain block style (flow mappings, keys on continuation lines).
    static func locate(key: String, first: Position, in text: String) -> Found? {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
        guard first.line >= 1, first.line <= lines.count else { return nil }
        let indent = first.column - 1
        guard keyName(lines[first.line - 1], indent: indent) == key else { return nil }
        for index in first.line..<lines.count {
            let line = lines[index]
            guard let own = indentation(line) else { continue }
            if own < indent { return nil }
            if own == indent, keyName(line, indent: indent) == key {
                return Found(line: index + 1, column: first.column, parents: parents(of: first.line - 1, indent: indent, lines: lines))
            }
        }
        return nil
    }

    /// The keys of the enclosing blocks, outermost first.
    static func parents(of lineIndex: Int, indent: Int, lines: [String]) -> [String] {
        var result: [String] = []
        var limit = indent
        var index = lineIndex - 1
        while index >= 0, limit > 0 {
            let line = lines[index]
            if let own = indentation(line), own < limit, let name = keyName(line, indent: own) {
                result.insert(name, at: 0)
                limit = own
            }
            index -= 1
        }
        return result
    }

    /// Spaces before the content, or nil for a blank or comment line.
    static func indentation(_ line: String) -> Int? {
        let content = line.drop(while: { $0 == " " })
        if content.isEmpty || content.hasPrefix("#") { return nil }
        return line.count - content.count
    }

    /// The key a `key: value` line at `indent` starts with (plain or quoted).
    static func keyName(_ line: String, indent: Int) -> String? {
        guard line.count > indent else { return nil }
        let rest = line.dropFirst(indent)
        if let quote = rest.first, quote == "\"" || quote == "'" {
            guard let close = rest.dropFirst().firstIndex(of: quote) else { return nil }
            let after = rest[rest.index(after: close)...]
            return after.hasPrefix(":") ? String(rest[rest.index(after: rest.startIndex)..<close]) : nil
        }
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let name = rest[..<colon].trimmingCharacters(in: .whitespaces)
        let after = rest[rest.index(after: colon)...]
        return !name.isEmpty && (after.isEmpty || after.hasPrefix(" ")) ? name : nil
    }
}
