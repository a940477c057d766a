import Foundation
import Testing

/// Relative links in the Markdown docs point at files that exist, and `#anchor`s at headings that exist.
@Suite struct DocLinksTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// README.md, every Markdown file under docs/, and the generated scenario reference.
    static func checkedFiles() -> [URL] {
        var files = [root.appendingPathComponent("README.md"), root.appendingPathComponent("Scenarios/README.md")]
        let docs = root.appendingPathComponent("docs")
        if let walker = FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where url.pathExtension == "md" { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }

    @Test func everyRelativeLinkReachesAFileAndHeading() throws {
        let files = Self.checkedFiles()
        #expect(files.count >= 12, "README.md, Scenarios/README.md and docs/**/*.md")
        var broken: [String] = []
        var checked = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for link in MarkdownLinks.relativeTargets(in: text) {
                checked += 1
                if let problem = Self.problem(with: link, from: file) {
                    broken.append("\(file.path.dropFirst(Self.root.path.count + 1)): (\(link)) \(problem)")
                }
            }
        }
        #expect(checked >= 30, "the docs link to each other; finding few links means the extractor is broken")
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    /// Why `link`, written in `file`, does not resolve; nil when it does.
    static func problem(with link: String, from file: URL) -> String? {
        let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        let target = path.isEmpty ? file : file.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
        guard target.path.hasPrefix(root.path) else { return "leaves the repository" }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) else { return "no such file" }
        guard parts.count == 2 else { return nil }
        guard target.pathExtension == "md", !isDirectory.boolValue,
              let text = try? String(contentsOf: target, encoding: .utf8) else { return "anchor into a file that is not Markdown" }
        return MarkdownLinks.headingSlugs(in: text).contains(String(parts[1])) ? nil : "no heading with this anchor"
    }

    @Test func extractsRelativeLinksOutsideCode() {
        let text = """
            See [the model](docs/model/README.md), ![a plot](Results/figures/x.png "title") and [radio](docs/model/radio.md#channel).
            Skipped: [web](https://example.org), [mail](mailto:a@b.c), `[code](not/a/link.md)`, [a, b] (c).
            ```
            [fenced](not/a/link.md)
            ```
            [same file](#quick-start)
            """
        #expect(MarkdownLinks.relativeTargets(in: text)
                == ["docs/model/README.md", "Results/figures/x.png", "docs/model/radio.md#channel", "#quick-start"])
    }

    @Test func slugsFollowGitHub() {
        let text = """
            # ENSim
            ## Population and phones (`population`)
            ### Speed and memory: 30 M × 7 days
            ## Notes
            ## Notes
            ```
            # not a heading
            ```
            """
        #expect(MarkdownLinks.headingSlugs(in: text)
                == ["ensim", "population-and-phones-population", "speed-and-memory-30-m--7-days", "notes", "notes-1"])
    }

    @Test func aBrokenLinkIsReported() {
        let readme = Self.root.appendingPathComponent("README.md")
        #expect(Self.problem(with: "docs/no-such-file.md", from: readme) == "no such file")
        #expect(Self.problem(with: "docs/architecture.md#no-such-heading", from: readme) == "no heading with this anchor")
        #expect(Self.problem(with: "../outside.md", from: readme) == "leaves the repository")
        #expect(Self.problem(with: "docs/architecture.md", from: readme) == nil)
    }
}

/// Markdown link targets and GitHub heading anchors, enough for ENSim's docs.
enum MarkdownLinks {
    /// Targets of `[text](target)` and `![alt](target)` that are not web or mail addresses,
    /// outside fenced code blocks and inline code spans.
    static func relativeTargets(in text: String) -> [String] {
        var targets: [String] = []
        for line in proseLines(of: text) {
            let prose = line.replacing(/`[^`]*`/, with: "")
            for match in prose.matches(of: /\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/) {
                let target = String(match.output.1)
                if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") { continue }
                targets.append(target)
            }
        }
        return targets
    }

    /// GitHub's anchors of the file's headings: lower case, punctuation dropped, spaces as
    /// hyphens, and `-1`, `-2`, … on repeats.
    static func headingSlugs(in text: String) -> [String] {
        var seen: [String: Int] = [:]
        var slugs: [String] = []
        for line in proseLines(of: text) {
            guard let heading = line.firstMatch(of: /^#{1,6}\s+(.*?)\s*#*\s*$/) else { continue }
            let base = slug(String(heading.output.1))
            let repeats = seen[base, default: 0]
            seen[base] = repeats + 1
            slugs.append(repeats == 0 ? base : "\(base)-\(repeats)")
        }
        return slugs
    }

    static func slug(_ heading: String) -> String {
        let rendered = heading.replacing(/\[([^\]]*)\]\([^)]*\)/) { $0.output.1 }   // a link shows its text
        var slug = String.UnicodeScalarView()
        for scalar in rendered.lowercased().unicodeScalars {
            if scalar == " " { slug.append("-") }
            else if scalar == "-" || scalar == "_" || isWordCharacter(scalar) { slug.append(scalar) }
        }
        return String(slug)
    }

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// The lines outside fenced code blocks.
    private static func proseLines(of text: String) -> [Substring] {
        var inFence = false
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle(); continue }
            if !inFence { lines.append(line) }
        }
        return lines
    }
}
