import Foundation
import Testing

/// `ensim report` writes one self-contained page; a real browser (headless Chromium) loads it with
/// every image and no script error.
@Suite struct ReportCommandTests {
    static func chromium() -> String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func browser(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.chromium(), "Chromium is missing: run `bash .ci/setup` (apt-get install chromium)"))
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func reportPageLoadsInABrowserWithEveryImage() throws {
        let dir = EnsimProcess.temporaryDirectory()
        let file = dir.appendingPathComponent("r.yaml")
        try Data("name: r\nseed: 6\ndays: 3\npopulation:\n  size: 3000\n  app_adoption: 0.6\nhealth:\n  cases_per_day: 8\n".utf8).write(to: file)
        let run = dir.appendingPathComponent("run")
        #expect(try EnsimProcess.run(["run", file.path, "--quiet", "--out", run.path]).status == 0)
        let report = try EnsimProcess.run(["report", run.path])
        #expect(report.status == 0, "\(report.stderr)")
        let page = try String(contentsOf: run.appendingPathComponent("report.html"), encoding: .utf8)
        // Self-contained: nothing fetched from anywhere.
        #expect(!page.contains("src=\"http") && !page.contains("href=\"http") && !page.contains("<link"))
        let images = page.components(separatedBy: "<img ").count - 1
        #expect(images >= 6, "the plots should be on the page")
        #expect(page.contains("3,000 people") && page.contains("precision"))

        let dom = try browser(["--dump-dom", run.appendingPathComponent("report.html").absoluteString])
        #expect(dom.contains("data-images-loaded=\"\(images)\""), "not every image loaded: \(dom.prefix(400))")
        #expect(dom.contains("data-images-failed=\"0\"") && dom.contains("data-errors=\"0\""))
        let shot = dir.appendingPathComponent("shot.png")
        _ = try browser(["--window-size=1100,1600", "--screenshot=\(shot.path)", run.appendingPathComponent("report.html").absoluteString])
        let png = try Data(contentsOf: shot)
        #expect(png.count > 20_000 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))

        let missing = try EnsimProcess.run(["report", dir.path])
        #expect(missing.status == 1 && missing.stderr == "error: \(dir.path): is not a finished run folder (no manifest.json)\n")
        let noScripts = try EnsimProcess.run(["report", run.path, "--plot-scripts", dir.path])
        #expect(noScripts.status == 1 && noScripts.stderr.contains("no such plot script"), "\(noScripts.stderr)")
    }
}
