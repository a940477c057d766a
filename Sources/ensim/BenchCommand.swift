import ArgumentParser
import ENSimBenchmarks
import Foundation
import HealthBackend
import Reporting
import Simulation
import World

/// `ensim bench NAME`: each benchmark is a subcommand that parses its options and runs the
/// workload from `ENSimBenchmarks`.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a benchmark (release build recommended: swift build -c release).",
        subcommands: [BenchEngine.self, BenchCrypto.self, BenchPopulation.self, BenchBackend.self,
                      BenchDistribution.self, BenchMatcher.self, BenchDays.self, BenchParallel.self, BenchEpidemic.self,
                      BenchOpenABM.self]
    )

    /// This binary, for benchmarks whose children are runs of it.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// Options every benchmark accepts.
struct BenchOutputOptions: ParsableArguments {
    @Flag(help: "Print the result as JSON.")
    var json = false

    @Option(help: "Also write the JSON result to this file (atomically).")
    var out: String?

    /// Runs a benchmark, prints its report as JSON or `key: value` lines and saves the JSON if
    /// asked; a benchmark that cannot run is one `error:` line and exit 1.
    func emit(_ benchmark: () throws -> BenchmarkReport) throws {
        let report: BenchmarkReport
        do { report = try benchmark() } catch let error as BenchmarkError { throw Console.failure(error.description) }
        let data = try report.json()
        if json {
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } else {
            for line in report.lines { print(line) }
        }
        if let out { try AtomicFile.write(data, to: URL(fileURLWithPath: out)) }
    }
}

extension BackendFlavor: ExpressibleByArgument {}

struct BenchEngine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine",
        abstract: "Hold-model throughput of the event engine, with SimPy as reference when available.",
        discussion: "Each handled event schedules one more at now + round(Exp(mean)) s, so the pending count stays constant."
    )

    @OptionGroup var output: BenchOutputOptions

    @Option(parsing: .upToNextOption, help: "Pending-event counts to measure.")
    var pending: [Int] = [1_000, 1_000_000]

    @Option(parsing: .unconditional, help: "Timed events per configuration and repetition.")
    var events = 20_000_000

    @Option(parsing: .unconditional, help: "Repetitions per configuration; the fastest is reported (the machine is shared).")
    var repetitions = 3

    @Option(help: "Mean increment in seconds.")
    var mean = 1e9

    @Option(parsing: .unconditional, help: "Seed of the GSL stream for the increments.")
    var seed: UInt64 = 1

    @Flag(inversion: .prefixedNo, help: "Also run the hold model in SimPy (Results/benchmarks/simpy_hold.py) when python3 has simpy.")
    var pythonReference = true

    @Option(parsing: .unconditional, help: "Timed events for SimPy (it is slow).")
    var simpyEvents = 200_000

    @Option(help: "Path of the SimPy hold-model script.")
    var simpyScript = "Results/benchmarks/simpy_hold.py"

    @Flag(inversion: .prefixedNo, help: "Also compare the queues (calendar queue, 4-ary heap, swift-collections' Heap) bare.")
    var queueComparison = true

    func validate() throws {
        guard !pending.isEmpty, pending.allSatisfy({ $0 > 0 }) else { throw ValidationError("--pending needs positive counts") }
        guard events > 0, repetitions > 0, simpyEvents > 0 else { throw ValidationError("counts must be positive") }
        guard mean >= 1 else { throw ValidationError("--mean must be at least 1 second") }
    }

    func run() throws {
        try output.emit {
            try EngineBenchmark(pending: pending, events: events, repetitions: repetitions, mean: mean, seed: seed,
                                simpyScript: pythonReference ? simpyScript : nil, simpyEvents: simpyEvents,
                                queueComparison: queueComparison).run()
        }
    }
}

struct BenchCrypto: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypto",
        abstract: "RPIs derived per second (batch path) vs `openssl speed` AES-128-ECB, one core."
    )

    @OptionGroup var output: BenchOutputOptions

    @Option(parsing: .unconditional, help: "Seconds per measurement of our own paths.")
    var seconds: Double = 2

    @Option(parsing: .unconditional, help: "Seconds per `openssl speed` run (its -seconds).")
    var opensslSeconds: Int = 3

    @Option(help: "The openssl executable.")
    var openssl: String = "openssl"

    func validate() throws {
        guard seconds > 0, opensslSeconds > 0 else { throw ValidationError("--seconds and --openssl-seconds must be positive") }
    }

    func run() throws {
        try output.emit {
            try CryptoBenchmark(seconds: seconds, opensslSeconds: opensslSeconds, openssl: OpenSSLSpeed(executable: openssl)).run()
        }
    }
}

struct BenchPopulation: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "population",
        abstract: "Time N phones × D days of the default population, contact and radio model.",
        discussion: "Example: ensim bench population --phones 100000 --days 28 --json"
    )

    @OptionGroup var output: BenchOutputOptions
    @OptionGroup var threads: ThreadOptions

    @OptionGroup var size: PopulationSizeOptions

    func run() throws {
        try output.emit { try PopulationBenchmark(phones: size.phones, days: size.days, threads: threads.count).run() }
    }
}

struct BenchEpidemic: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "epidemic",
        abstract: "The population run without and with the epidemic block: the epidemic's overhead and the engine's event rate.",
        discussion: "Example: ensim bench epidemic --phones 200000 --days 28 --json"
    )

    @OptionGroup var output: BenchOutputOptions
    @OptionGroup var threads: ThreadOptions

    @OptionGroup var size: PopulationSizeOptions

    @Flag(help: "Also time the run with `epidemic.counterfactual` (a second run of the same seed with nobody acting on notifications).")
    var counterfactual = false

    func run() throws {
        try output.emit {
            try EpidemicBenchmark(phones: size.phones, days: size.days, threads: threads.count, counterfactual: counterfactual).run()
        }
    }
}

struct BenchDays: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "days",
        abstract: "Time and peak memory of a short and a long run of a small scenario (cost per simulated day, memory growth).",
        discussion: "Example: ensim bench days --people 200 --short-days 28 --long-days 730 --json"
    )

    @OptionGroup var output: BenchOutputOptions
    @OptionGroup var threads: ThreadOptions

    @Option(parsing: .unconditional, help: "People in the scenario.") var people = 200
    @Option(parsing: .unconditional, help: "Days of the short run.") var shortDays = 28
    @Option(parsing: .unconditional, help: "Days of the long run.") var longDays = 730

    func validate() throws {
        guard people >= 2, people <= 10_000_000 else { throw ValidationError("--people must be from 2 to 10000000") }
        guard SimulationConfig.supportedDays.contains(shortDays), SimulationConfig.supportedDays.contains(longDays), shortDays < longDays else {
            throw ValidationError("--short-days and --long-days must be from 1 to 3650, short < long")
        }
    }

    func run() throws {
        let ensim = BenchCommand.executable
        try output.emit {
            try LongRunBenchmark(ensim: ensim, people: people, shortDays: shortDays, longDays: longDays, threads: threads.count).run()
        }
    }
}

struct BenchBackend: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backend",
        abstract: "Time the health system and backend alone: cases, verification, uploads and signed packages.",
        discussion: "Example: ensim bench backend --people 1000000 --cases-per-day 200 --national-uploads-per-day 1200 --json"
    )

    @OptionGroup var output: BenchOutputOptions

    @Option(parsing: .unconditional, help: "People in the contact population.") var people = 1_000_000
    @Option(parsing: .unconditional, help: "App adoption share.") var adoption = 0.4
    @Option(parsing: .unconditional, help: "Positive results per day in the population.") var casesPerDay = 200.0
    @Option(parsing: .unconditional, help: "Uploads per day from the rest of the country.") var nationalUploadsPerDay = 1200.0
    @Option(help: "Dummy upload sessions per app phone per day.") var dummyPerPhoneDay = 0.1
    @Option(parsing: .unconditional, help: "The national backend.") var flavor = BackendFlavor.cwa
    @Option(help: "Simulated days.") var days = 28

    func validate() throws {
        guard people >= 1, SimulationConfig.supportedDays.contains(days) else { throw ValidationError("--people ≥ 1 and --days 1…3650") }
    }

    func run() throws {
        try output.emit {
            try BackendBenchmark(people: people, adoption: adoption, casesPerDay: casesPerDay, nationalUploadsPerDay: nationalUploadsPerDay,
                                 dummyPerPhoneDay: dummyPerPhoneDay, flavor: flavor, days: days).run()
        }
    }
}

struct BenchDistribution: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "distribution",
        abstract: "Time N download clients × D days on the CDN model, with the CWA seed comparison.",
        discussion: "Example: ensim bench distribution --clients 30000000 --days 7 --tables Results/benchmarks/distribution-30M --json"
    )

    @OptionGroup var output: BenchOutputOptions
    @OptionGroup var threads: ThreadOptions

    @Option(parsing: .unconditional, help: "Download clients.")
    var clients = 1_000_000

    @Option(parsing: .unconditional, help: "Simulated days.")
    var days = 7

    @Option(help: "The app whose packages and download protocol are simulated.")
    var flavor = BackendFlavor.cwa

    @Option(parsing: .unconditional, help: "Positive cases per day in the synthetic packages.")
    var casesPerDay = 2_000.0

    @Option(parsing: .unconditional, help: "Keys per case.")
    var keysPerCase = 14

    @Option(help: "Write summary.json and the distribution tables (CSV) into this new folder.")
    var tables: String?

    func validate() throws {
        guard (1...200_000_000).contains(clients) else { throw ValidationError("--clients must be from 1 to 200000000") }
        guard (1...60).contains(days) else { throw ValidationError("--days must be from 1 to 60") }
    }

    func run() throws {
        try output.emit {
            try DistributionBenchmark(clients: clients, days: days, flavor: flavor, casesPerDay: casesPerDay, keysPerCase: keysPerCase,
                                      threads: threads.count, tablesFolder: tables.map { URL(fileURLWithPath: $0) })
                .run(log: Console.error)
        }
    }
}

struct BenchMatcher: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matcher",
        abstract: "RPI derivations/s per core (alone and in the key-index build) vs openssl AES-128-ECB; encounters matched/s at 1, 2, all cores.",
        discussion: "ensim bench matcher --json --out Results/benchmarks/matcher.json")

    @Option(parsing: .unconditional, help: "Population of the simulated world whose encounters are matched.")
    var population = 200_000

    @Option(parsing: .unconditional, help: "Published keys in the index.")
    var keys = 20_000

    @Option(parsing: .unconditional, help: "Repetitions of each timed part; the fastest counts (the machine is shared and noisy).")
    var repeats = 5

    @OptionGroup var output: BenchOutputOptions

    func run() throws {
        try output.emit { try MatcherBenchmark(population: population, keys: keys, repeats: repeats).run() }
    }
}

struct BenchParallel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallel",
        abstract: "The whole run's speed-up from 1 to 2 threads against two independent 1-thread runs at once, with each phase's speed-up.",
        discussion: "Example: ensim bench parallel --phones 100000 --days 28 --rounds 3 --json"
    )

    @OptionGroup var output: BenchOutputOptions

    @OptionGroup var size: PopulationSizeOptions

    @Option(help: "Rounds of the three measurements (median, range and a 95% interval reported; a shared machine moves one round by ±4 points or more).")
    var rounds = 3

    func validate() throws {
        guard (1...20).contains(rounds) else { throw ValidationError("--rounds must be from 1 to 20") }
    }

    func run() throws {
        let ensim = BenchCommand.executable
        try output.emit { try ParallelBenchmark(ensim: ensim, phones: size.phones, days: size.days, rounds: rounds).run() }
    }
}

struct BenchOpenABM: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openabm",
        abstract: "Wall time per person-day against OpenABM-Covid19's, in alternating rounds, with a 95% interval.",
        discussion: """
            Each round runs `ensim bench population` and OpenABM-Covid19's baseline parameters \
            (people from --phones, days from --openabm-days, the app on from day 1), one after \
            the other. Issue 21's target is at most 2× per person-day.
            Example: ensim bench openabm --openabm ~/OpenABM-Covid19 --phones 1000000
            """
    )

    @OptionGroup var output: BenchOutputOptions

    @OptionGroup var size: PopulationSizeOptions

    @Option(help: "An OpenABM-Covid19 checkout with its model built (src/covid19ibm.exe).")
    var openabm: String

    @Option(help: "Days OpenABM-Covid19 simulates (the sittings so far: 30).")
    var openabmDays = 30

    @Option(help: "ENSim's threads.")
    var threads = 2

    @Option(help: "Rounds (each: both runs, in alternating order).")
    var rounds = 3

    func validate() throws {
        guard (1...20).contains(rounds) else { throw ValidationError("--rounds must be from 1 to 20") }
        guard (1...3650).contains(openabmDays) else { throw ValidationError("--openabm-days must be from 1 to 3650") }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be from 1 to 256") }
    }

    func run() throws {
        let ensim = BenchCommand.executable
        let checkout = URL(fileURLWithPath: (openabm as NSString).expandingTildeInPath)
        try output.emit {
            try OpenABMBenchmark(ensim: ensim, openABM: checkout, phones: size.phones, days: size.days, openABMDays: openabmDays,
                                 threads: threads, rounds: rounds).run()
        }
    }
}

/// The population benchmarks' size: people and days.
struct PopulationSizeOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "People (each with a phone; the default share runs the app).")
    var phones = 100_000

    @Option(parsing: .unconditional, help: "Simulated days.")
    var days = 28

    func validate() throws {
        guard phones >= 1, phones <= 100_000_000 else { throw ValidationError("--phones must be from 1 to 100000000") }
        guard SimulationConfig.supportedDays.contains(days) else { throw ValidationError("--days must be from 1 to 3650") }
    }
}
