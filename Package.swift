// swift-tools-version: 6.0
// ENSim: layers from bottom to top. A target only depends on targets listed above it.
import PackageDescription

/// The simulation's stage targets, bottom to top (layer 4 below).
let simulationStages: [Target.Dependency] = ["SimulationCore", "World", "HealthBackend", "Distribution", "Detection",
                                             "Analytics", "P6Phones", "Epidemic"]

let package = Package(
    name: "ENSim",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "ensim", targets: ["ensim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        .package(url: "https://github.com/yaslab/CSV.swift", exact: "2.5.2"),
    ],
    targets: [
        // Layer 1: GSL, the one source of randomness and statistics.
        .systemLibrary(name: "CGSL", pkgConfig: "gsl", providers: [.apt(["libgsl-dev"])]),
        .target(name: "GSL", dependencies: ["CGSL"]),

        // CSV input: every CSV file read goes through CSV.swift here (RFC 4180, BOM, line numbers).
        .target(name: "CSVInput", dependencies: [.product(name: "CSV", package: "CSV.swift")]),

        // Layer 2: domain-free discrete-event engine (CPrefetch: one inline C function, a prefetch hint).
        .target(name: "CPrefetch"),
        .target(name: "EventEngine", dependencies: [
            "CPrefetch",
            .product(name: "HeapModule", package: "swift-collections"),
        ]),

        // Layer 3: pure protocol libraries.
        // System OpenSSL libcrypto for GAEN's batch AES-ECB (RPI derivation hot path).
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "GAEN", dependencies: [
            "CLibCrypto", "CSVInput",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ], exclude: ["Proto/export.proto"]),

        .target(name: "P6", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
        ]),

        // Layer 4: the simulation, one target per stage group; each only depends on those above it here.
        // SimulationCore: the Stage protocol, the run context, parallel shards, result tables.
        .target(name: "SimulationCore", dependencies: ["GSL", "EventEngine"]),
        // The world: population, phones and keys, contacts and ground truth, the Bluetooth radio.
        .target(name: "World", dependencies: ["SimulationCore", "GSL", "EventEngine", "GAEN", "CPrefetch"]),
        // Health system and backend: cases, key submission (CWA, Immuni), publication; Italian reference tables.
        .target(name: "HealthBackend", dependencies: ["SimulationCore", "World", "GSL", "EventEngine", "GAEN", "CSVInput",
                                                      .product(name: "Crypto", package: "swift-crypto"),
                                                      .product(name: "SwiftProtobuf", package: "swift-protobuf")],
                exclude: ["Backend/Proto/submission_payload.proto"]),
        // Package downloads and CDN load.
        .target(name: "Distribution", dependencies: ["SimulationCore", "World", "HealthBackend", "GSL", "EventEngine", "GAEN"]),
        // Exposure detection on the phones and its scoring against ground truth.
        .target(name: "Detection", dependencies: ["SimulationCore", "World", "HealthBackend", "Distribution",
                                                  "GSL", "EventEngine", "GAEN", "CPrefetch", "CSVInput"]),
        // Immuni's privacy-preserving analytics.
        .target(name: "Analytics", dependencies: ["SimulationCore", "World", "HealthBackend", "Distribution", "Detection",
                                                  "GSL", "EventEngine", .product(name: "Crypto", package: "swift-crypto")]),
        // P6 phones beside GAEN, and the P6 collision study.
        .target(name: "P6Phones", dependencies: ["SimulationCore", "World", "HealthBackend", "Distribution", "Detection",
                                                 "GSL", "EventEngine", "P6", .product(name: "Crypto", package: "swift-crypto")]),
        // The epidemic: transmission over the contacts, testing, quarantine on notification.
        .target(name: "Epidemic", dependencies: ["SimulationCore", "World", "HealthBackend", "Distribution", "Detection",
                                                 "GSL", "EventEngine"]),
        // The run: builds the stages from the configuration and drives the day's pipeline.
        .target(name: "Simulation", dependencies: simulationStages + ["GSL", "EventEngine", "GAEN"]),

        // Layer 5: scenario files and results.
        .target(name: "Scenario", dependencies: [
            "EventEngine", "GSL",
            .product(name: "Yams", package: "Yams"),
        ] + simulationStages + ["Simulation"]),
        .target(name: "Reporting", dependencies: [
            "Scenario",
            .product(name: "Crypto", package: "swift-crypto"),
        ] + simulationStages + ["Simulation"]),

        // Layer 6: benchmark workloads and their reports (`ensim bench`).
        .target(name: "ENSimBenchmarks", dependencies: ["Reporting", "GAEN", "EventEngine", "GSL", "CSVInput"] + simulationStages + ["Simulation"]),

        // Layer 6: sweeps: many runs of one scenario (grid × replicates) on this machine or a Dask cluster (`ensim sweep`).
        .target(name: "Sweep", dependencies: ["Reporting", "Scenario", "Simulation", "GSL", .product(name: "Crypto", package: "swift-crypto")]),

        // Layer 7: the command-line tool: parses options, calls the libraries.
        .executableTarget(name: "ensim", dependencies: [
            "ENSimBenchmarks", "Sweep", "Scenario", "Reporting", "GAEN", "GSL",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ] + simulationStages + ["Simulation"]),

        // Test helpers shared by the test targets (folders for their files).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "GSLTests", dependencies: ["GSL", "CGSL"]),
        .testTarget(name: "EventEngineTests", dependencies: ["EventEngine", "CPrefetch"]),
        .testTarget(name: "GAENTests", dependencies: ["GAEN"]),
        .testTarget(name: "P6Tests", dependencies: ["P6"]),
        .testTarget(name: "SimulationTests", dependencies: simulationStages + ["Simulation", "CPrefetch", "TestSupport"]),
        .testTarget(name: "ScenarioTests", dependencies: ["Scenario", "TestSupport"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "TestSupport"]),
        .testTarget(name: "ENSimBenchmarksTests", dependencies: ["ENSimBenchmarks"]),
        .testTarget(name: "SweepTests", dependencies: ["Sweep", "Scenario", "Reporting", "SimulationCore", "TestSupport"]),
        .testTarget(name: "ensimTests", dependencies: ["ensim", "Scenario", "Simulation", "TestSupport"]),
        .testTarget(name: "DocsTests", path: "Tests/DocsTests"),
    ]
)
