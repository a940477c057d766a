// swift-tools-version: 6.0
// ENSim: layers from bottom to top. A target only depends on targets listed above it.
import PackageDescription

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
            "CLibCrypto",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ], exclude: ["Proto/export.proto"]),

        .target(name: "P6", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
        ]),

        // Layer 4: the simulation.
        .target(name: "Simulation", dependencies: ["GSL", "EventEngine", "CPrefetch", "GAEN", "P6",
                                                 .product(name: "Crypto", package: "swift-crypto"),
                                                 .product(name: "SwiftProtobuf", package: "swift-protobuf")],
                exclude: ["Backend/Proto/submission_payload.proto"]),

        // Layer 5: scenario files and results.
        .target(name: "Scenario", dependencies: [
            "Simulation", "EventEngine",
            .product(name: "Yams", package: "Yams"),
        ]),
        .target(name: "Reporting", dependencies: [
            "Simulation", "Scenario",
            .product(name: "CSV", package: "CSV.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),

        // Layer 6: the command-line tool.
        .executableTarget(name: "ensim", dependencies: [
            "Scenario", "Reporting", "Simulation", "GAEN", "P6", "EventEngine", "GSL",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        .testTarget(name: "GSLTests", dependencies: ["GSL"]),
        .testTarget(name: "EventEngineTests", dependencies: ["EventEngine"]),
        .testTarget(name: "GAENTests", dependencies: ["GAEN"]),
        .testTarget(name: "P6Tests", dependencies: ["P6"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation"]),
        .testTarget(name: "ScenarioTests", dependencies: ["Scenario"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting"]),
        .testTarget(name: "ensimTests", dependencies: ["ensim"]),
        .testTarget(name: "DocsTests", path: "Tests/DocsTests"),
    ]
)
