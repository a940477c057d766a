import ArgumentParser
import Detection
import Foundation
import Logging
import Reporting
import Scenario
import Simulation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario and write its results folder.",
        discussion: """
        Writes manifest.json, summary.json, daily.csv and hourly.csv into the run
        folder (default Results/<scenario name>/<UTC time>-seed<seed>/). The folder
        appears only when the run is complete. Same scenario and seed give
        byte-identical results whatever --threads is.

        Examples:
          ensim run Scenarios/default.yaml
          ensim run Scenarios/default.yaml --seed 7 --days 3 --threads 2 \\
            --out /tmp/ensim-run
          ensim run Scenarios/national-italy.yaml --estimate

        Before it starts, a run estimates its peak memory from its size and refuses
        (exit 2) when the machine has less available; --estimate prints the estimate
        and exits. While it runs, it stops (exit 2, nothing written) when the
        machine's available memory falls below ENSIM_MEMORY_RESERVE, before the
        kernel would kill it.
        """
    )

    @Argument(help: "Scenario YAML file.")
    var scenario: String

    @Option(parsing: .unconditional, help: "Override the scenario's seed.")
    var seed: UInt64?

    @Option(parsing: .unconditional, help: "Override the number of simulated days (1…3650).")
    var days: Int?

    @OptionGroup var threads: ThreadOptions

    @Option(help: "Results folder to create (must not exist).")
    var out: String?

    @Flag(help: "No progress and no summary: print only the results folder.")
    var quiet = false

    @Flag(help: "Print the estimated peak memory and time of the run, and exit without running it.")
    var estimate = false

    @Flag(help: """
        Run even when the estimated peak memory exceeds the memory available, or its temporary files the free space \
        in TMPDIR; and do not stop the run when the machine's available memory falls below ENSIM_MEMORY_RESERVE \
        (bytes; default 3% of the memory, at least 512 MB).
        """)
    var ignoreMemoryCheck = false

    func validate() throws {
        let supported = SimulationConfig.supportedDays
        if let days, !supported.contains(days) {
            throw ValidationError("--days must be from \(supported.lowerBound) to \(supported.upperBound), got \(days)")
        }
        if let seed, seed > UInt64(Int64.max) { throw ValidationError("--seed must be from 0 to \(Int64.max)") }
        if !ignoreMemoryCheck { _ = try MemoryWatchdog.reserveBytes() }
    }

    func run() throws {
        let startedAt = Date()
        let loaded: LoadedScenario
        do {
            loaded = try ScenarioLoader.load(file: scenario)
        } catch {
            Console.error(error.description)
            throw ExitCode(2)
        }
        var resolved = loaded.resolved
        if let seed { resolved = resolved.replacing(["seed"], with: .integer(Int64(seed))) }
        if let days { resolved = resolved.replacing(["days"], with: .integer(Int64(days))) }
        let threadCount = threads.count
        let config = SimulationConfig(scenario: resolved, threads: threadCount)
        let needs = RunEstimate(config: config)
        if estimate {
            print("\(loaded.file): \(needs.text)")
            if let available = RunEstimate.availableBytes() { print("available memory: \(RunEstimate.bytesText(available))") }
            if let free = RunEstimate.availableDiskBytes() { print("free space for temporary files: \(RunEstimate.bytesText(free))") }
            return
        }
        if !ignoreMemoryCheck, let available = RunEstimate.availableBytes(), needs.peakBytes > available {
            let (needed, held) = RunEstimate.bytesTexts(needs.peakBytes, available)
            if needs.replayBytes * 2 > needs.peakBytes {
                let a = config.p6.attacks
                let perPhone = String(format: "%.1f", needs.replayRelaysPerPhone)
                Console.error("error: \(loaded.file): p6.attacks.replay (\(a.replayAttacks) attacks × \(a.replayRelays) relays, \(perPhone) "
                              + "relay devices per app phone at once) needs about \(needed) of memory but \(held) is available; "
                              + "use fewer attacks or relays, more days for the attacks to spread over, or --ignore-memory-check to try anyway")
                throw ExitCode(2)
            }
            Console.error("error: \(loaded.file): population.size \(config.populationSize) needs about \(needed) "
                          + "of memory (\(config.days) days) but \(held) is available; use a smaller "
                          + "population.size or fewer days, or --ignore-memory-check to try anyway")
            throw ExitCode(2)
        }
        if !ignoreMemoryCheck, let free = RunEstimate.availableDiskBytes(), needs.diskBytes > free {
            let (needed, held) = RunEstimate.bytesTexts(needs.diskBytes, free)
            Console.error("error: \(loaded.file): population.size \(config.populationSize) needs about \(needed) "
                          + "of temporary files (\(config.days) days) but \(held) is free in "
                          + "\(RunEstimate.temporaryFolder); set TMPDIR to a folder with more space, use a smaller "
                          + "population.size or fewer days, or --ignore-memory-check to try anyway")
            throw ExitCode(2)
        }

        let log = Logger(label: "ensim.run")
        // Claimed before the work, so a clash with another run or an existing folder costs nothing.
        let folder: RunFolder
        do {
            folder = try out.map { try RunFolder(finalURL: URL(fileURLWithPath: $0)) } ?? Self.claimDefaultFolder(config)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        if !quiet, !folder.removedStale.isEmpty {
            log.info("removed \(folder.removedStale.count) staging folder(s) of killed runs: \(folder.removedStale.joined(separator: ", "))")
        }
        var watchdog: MemoryWatchdog?
        if !ignoreMemoryCheck {
            let file = loaded.file, estimated = needs.peakBytes, unfinished = UncheckedSendable(folder)
            let reserve = try MemoryWatchdog.reserveBytes()
            watchdog = MemoryWatchdog(reserve: reserve, message: { available, resident in
                let (left, kept) = RunEstimate.bytesTexts(available, reserve)
                return "error: \(file): stopped before the machine ran out of memory: the run held \(RunEstimate.bytesText(resident)) "
                    + "(estimated peak \(RunEstimate.bytesText(estimated))) and \(left) was left, "
                    + "less than the \(kept) kept free (ENSIM_MEMORY_RESERVE); nothing was written; "
                    + "use a smaller population.size or fewer days, or free memory"
            }, stop: { unfinished.value.discard() })
        }
        let reporter = ProgressReporter(mode: quiet ? .quiet : (isatty(STDERR_FILENO) == 1 ? .bar : .lines), logger: log)
        if !quiet {
            log.info("running \(loaded.file): \(config.days) days from \(resolved.at("start")!.textValue!), \(config.populationSize) people, seed \(config.seed), \(threadCount) threads")
            log.info("\(needs.text)")
        }
        let results: SimulationResults
        do {
            // Tables that grow with the run's length go into the folder as the run goes.
            let streams = CSVStreams(folder: folder)
            results = try Simulation(config: config, streams: streams).run(progress: reporter.update)
            try streams.finish()
        } catch {
            watchdog?.cancel()
            reporter.finish()
            folder.discard()
            Console.error("error: simulation failed: \(error)")
            throw ExitCode(1)
        }
        // The results are complete: writing them must not be cut short into a claim that nothing was written.
        watchdog?.cancel()
        reporter.finish()
        var manifest = RunManifest(scenario: loaded, resolved: resolved, seed: config.seed, threads: threadCount,
                                   version: ENSimVersion.string, gitCommit: GitInfo.commit(), startedAt: startedAt,
                                   finishedAt: Date())
        manifest.peakMemoryBytes = ProcessMemory.peakResidentBytes()
        do {
            try ResultsWriter.write(results, manifest: manifest, to: folder)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        if quiet {
            print(folder.finalURL.path)
        } else {
            // Read back from the folder, as `ensim summary` does, so both always print the same.
            do {
                print(try FinishedRun(folder: folder.finalURL.path).digest().text(folder: folder.finalURL.path), terminator: "")
            } catch {
                Console.error("warning: \(error)")
                print(folder.finalURL.path)
            }
        }
    }

    /// Results/<name>/<UTC time>-seed<seed>, with -2, -3, … when runs start in the same second.
    static func claimDefaultFolder(_ config: SimulationConfig) throws -> RunFolder {
        let stamp = Self.stampFormatter.string(from: Date())
        let base = "Results/\(config.name)/\(stamp)-seed\(config.seed)"
        for n in 1...1000 {
            do {
                return try RunFolder(finalURL: URL(fileURLWithPath: n == 1 ? base : "\(base)-\(n)"))
            } catch is RunFolder.ClaimError {
                continue
            }
        }
        throw ReportingError.io(path: base, reason: "1000 runs of this scenario and seed started in the same second; use --out")
    }

    static var stampFormatter: DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return f
    }
}

/// The commit of the working directory's git checkout, when there is one.
enum GitInfo {
    static func commit() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "rev-parse", "HEAD"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
