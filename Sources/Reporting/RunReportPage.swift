import Foundation

/// `ensim report`: one self-contained HTML page of a finished run for people who read results,
/// not files: the scenario in plain words, the key figures with their intervals, the plots
/// (embedded as PNG data, so the page needs no network and no other file) and every output file.
/// A small script records in the page whether each image loaded and any script error, which the
/// browser test reads back.
public struct RunReportPage {
    /// A figure drawn by a plot script: its caption and PNG bytes.
    public struct Figure {
        public var caption: String
        public var png: Data
        public init(caption: String, png: Data) { self.caption = caption; self.png = png }
    }

    /// The scenario keys the plain-words paragraph uses (manifest.json's resolved scenario).
    struct Scenario: Decodable {
        struct Population: Decodable {
            var appAdoption: Double
            enum CodingKeys: String, CodingKey { case appAdoption = "app_adoption" }
        }
        struct Health: Decodable {
            var casesPerDay: Double
            var casesCSV: String
            enum CodingKeys: String, CodingKey { case casesPerDay = "cases_per_day", casesCSV = "cases_csv" }
        }
        var population: Population
        var health: Health
    }
    struct Manifest: Decodable {
        var scenarioFile: String
        var seed: String
        var ensimVersion: String
        var resolvedScenario: Scenario
        enum CodingKeys: String, CodingKey {
            case scenarioFile = "scenario_file", seed, ensimVersion = "ensim_version", resolvedScenario = "resolved_scenario"
        }
    }

    let run: FinishedRun
    let digest: RunDigest
    let manifest: Manifest

    public init(run: FinishedRun) throws(FinishedRunError) {
        self.run = run
        digest = try run.digest()
        guard let data = FileManager.default.contents(atPath: run.manifestPath),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else {
            throw FinishedRunError(path: run.manifestPath, reason: "is not a manifest ensim can read")
        }
        self.manifest = manifest
    }

    /// The scenario in a sentence or two.
    var plainWords: String {
        let s = manifest.resolvedScenario
        let cases = s.health.casesCSV.isEmpty
            ? String(format: "%g positive test results a day on average", s.health.casesPerDay)
            : "positive test results following \(URL(fileURLWithPath: s.health.casesCSV).lastPathComponent)"
        return "\(RunDigest.grouped(digest.population)) people, \(String(format: "%.0f%%", 100 * s.population.appAdoption)) of them "
            + "with the app (\(RunDigest.grouped(digest.appPhones)) phones), over \(digest.days) days from \(digest.start); \(cases). "
            + "Backend: \(digest.backend.flavor == "cwa" ? "Corona-Warn-App" : "Immuni"); exposure detection: \(digest.detection.preset). "
            + "Scenario file \(manifest.scenarioFile), seed \(manifest.seed), ENSim \(manifest.ensimVersion)."
    }

    public func html(figures: [Figure]) -> String {
        let rows = digest.rows(folder: nil).map { "<tr><th>\(escape($0.0))</th><td>\(escape($0.1))</td></tr>" }.joined(separator: "\n")
        let images = figures.map { figure in
            """
            <figure><img alt="\(escape(figure.caption))" src="data:image/png;base64,\(figure.png.base64EncodedString())">
            <figcaption>\(escape(figure.caption))</figcaption></figure>
            """
        }.joined(separator: "\n")
        let files = run.files().map { "<tr><td>\(escape($0.name))</td><td class=\"n\">\(RunDigest.grouped($0.bytes))</td></tr>" }
            .joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>ENSim run: \(escape(digest.scenario))</title>
            <style>
            body { font: 15px/1.45 system-ui, sans-serif; max-width: 980px; margin: 2em auto; padding: 0 1em; color: #222; }
            h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; border-bottom: 1px solid #ddd; }
            table { border-collapse: collapse; } th, td { text-align: left; padding: .25em .8em .25em 0; vertical-align: top; }
            td.n { text-align: right; font-variant-numeric: tabular-nums; } figure { margin: 1.5em 0; }
            img { max-width: 100%; border: 1px solid #eee; } figcaption { color: #555; font-size: .9em; }
            </style></head>
            <body data-images-loaded="0" data-images-failed="0" data-errors="0">
            <h1>ENSim run: \(escape(digest.scenario))</h1>
            <p>\(escape(plainWords))</p>
            <h2>Key figures</h2>
            <table>
            \(rows)
            </table>
            <h2>Plots</h2>
            \(images.isEmpty ? "<p>No plots (python3 with matplotlib was not available).</p>" : images)
            <h2>Output files</h2>
            <table><tr><th>file</th><th>bytes</th></tr>
            \(files)
            </table>
            <p>Folder: \(escape(run.folder.path))</p>
            <script>
            window.addEventListener("error", () => { document.body.dataset.errors = String(Number(document.body.dataset.errors) + 1); });
            for (const img of document.images) {
              const done = () => { document.body.dataset.imagesLoaded = String(Number(document.body.dataset.imagesLoaded) + 1); };
              const fail = () => { document.body.dataset.imagesFailed = String(Number(document.body.dataset.imagesFailed) + 1); };
              if (img.complete) { img.naturalWidth > 0 ? done() : fail(); } else { img.addEventListener("load", done); img.addEventListener("error", fail); }
            }
            </script>
            </body></html>

            """
    }

    func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
