import ArgumentParser
import Foundation
import Reporting

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write report.html into a finished run folder: the scenario in words, key figures, plots, every file.",
        discussion: """
        The page is self-contained (plots embedded, styles inline): open it without a
        network or send it alone. The plots come from plot-scripts/ (python3 with
        matplotlib, installed by .ci/setup).

        Examples:
          ensim report Results/default/20201001T000000Z-seed20201001
        """)

    @Argument(help: "A finished run folder.")
    var folder: String

    @Option(help: "Folder of the plot scripts.")
    var plotScripts = "plot-scripts"

    func run() throws {
        do {
            let run = try FinishedRun(folder: folder)
            let page = try RunReportPage(run: run)
            let figures = try PlotScripts.draw(run: run, scriptsFolder: plotScripts)
            let out = run.folder.appendingPathComponent("report.html")
            try AtomicFile.write(Data(page.html(figures: figures).utf8), to: out)
            print(out.path)
        } catch let error as FinishedRunError {
            throw Console.failure(error.description)
        } catch let error as PlotScripts.Failure {
            throw Console.failure(error.description)
        } catch {
            throw Console.failure("\(error)")
        }
    }
}
