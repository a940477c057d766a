import Foundation
import Testing

/// ArgumentParser wraps help text to the terminal (80 columns without one; a line of 80 is
/// already broken) but keeps the text's own line breaks, so a hand-broken line that is too long
/// comes out as a long line and an orphan of a few words. Every line of a command's multi-line
/// `discussion` or `abstract` must therefore fit in 78 columns as the user sees it.
@Suite struct HelpTextTests {
    @Test func everyHelpLineFitsTheScreen() throws {
        let dir = EnsimProcess.packageRoot.appendingPathComponent("Sources/ensim")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 5)
        var checked = 0
        for file in files {
            let lines = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
            var i = 0
            while i < lines.count {
                defer { i += 1 }
                guard lines[i].hasSuffix("discussion: \"\"\"") || lines[i].hasSuffix("abstract: \"\"\"") else { continue }
                var block: [String] = []
                i += 1
                while i < lines.count, lines[i].trimmingCharacters(in: .whitespaces).hasPrefix("\"\"\"") == false {
                    block.append(lines[i]); i += 1
                }
                // The closing delimiter's indentation is what Swift strips from every line.
                let indent = i < lines.count ? lines[i].prefix { $0 == " " }.count : 0
                var joined = false
                for line in block where !line.isEmpty {
                    // A lone `\` at the end joins the next line: together they are one paragraph line,
                    // which ArgumentParser wraps cleanly, so neither needs to fit.
                    let continues = line.hasSuffix("\\") && !line.hasSuffix("\\\\")
                    defer { joined = continues }
                    if continues || joined { continue }
                    // A `\\` in the source is one backslash on the screen.
                    let shown = String(line.dropFirst(indent)).replacingOccurrences(of: "\\\\", with: "\\")
                    #expect(shown.count <= 78, "\(file): \(shown.count) columns: \(shown)")
                }
                checked += 1
            }
        }
        #expect(checked >= 8, "found only \(checked) multi-line help texts")
    }
}
