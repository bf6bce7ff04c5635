// swift-tools-version: 6.1
import PackageDescription

/// Swift 6 language mode with strict concurrency everywhere; warnings are treated as bugs.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "VetNet",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "vetnet", targets: ["vetnet"]),
        .library(name: "SharedKernel", targets: ["SharedKernel"]),
        .library(name: "PatientRecords", targets: ["PatientRecords"]),
        .library(name: "Triage", targets: ["Triage"]),
        .library(name: "Specialists", targets: ["Specialists"]),
        .library(name: "Scheduling", targets: ["Scheduling"]),
        .library(name: "Analytics", targets: ["Analytics"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(
            url: "https://github.com/ordo-one/package-benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // MARK: - Domain (Foundation + SharedKernel only; portable to Apple platforms unchanged)
        .target(name: "SharedKernel", swiftSettings: strict),
        .target(name: "PatientRecords", dependencies: ["SharedKernel"], swiftSettings: strict),
        .target(name: "Triage", dependencies: ["SharedKernel"], swiftSettings: strict),
        .target(name: "Specialists", dependencies: ["SharedKernel"], swiftSettings: strict),
        .target(name: "Scheduling", dependencies: ["SharedKernel"], swiftSettings: strict),
        .target(
            name: "Analytics", dependencies: ["SharedKernel", "Scheduling", "Specialists", "Triage"],
            swiftSettings: strict),

        // MARK: - Storage support (the keys, ciphers and files the ports and stores use)
        .target(
            name: "StorageSupport",
            dependencies: ["SharedKernel", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),

        // MARK: - Storage ports (what every store adapter implements; no database code)
        .target(
            name: "StoragePorts",
            dependencies: [
                "SharedKernel", "PatientRecords", "Specialists", "Triage", "Scheduling", "Analytics", "StorageSupport",
            ],
            swiftSettings: strict
        ),

        // MARK: - Adapters
        .target(
            name: "StorageSQLite",
            dependencies: [
                "StoragePorts", "StorageSupport", "SharedKernel", "PatientRecords", "Specialists", "Triage",
                "Scheduling", "Analytics",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        .target(
            name: "StoragePostgres",
            dependencies: [
                "StoragePorts", "StorageSupport", "SharedKernel", "PatientRecords", "Specialists", "Triage",
                "Scheduling", "Analytics",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // MARK: - Application (the use cases that span contexts; ports only, no HTTP, no adapter)
        .target(
            name: "PracticeServices",
            dependencies: [
                "SharedKernel", "PatientRecords", "Specialists", "Triage", "Scheduling", "Analytics", "StoragePorts",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),

        // MARK: - Delivery
        .target(
            name: "HTTPAPI",
            dependencies: [
                "SharedKernel", "PatientRecords", "Specialists", "Triage", "Scheduling", "Analytics", "StoragePorts",
                "StorageSupport", "PracticeServices",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            resources: [.copy("openapi.yaml"), .copy("openapi-contract.json"), .copy("WebApp")],
            swiftSettings: strict,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // The serving process's composition root: the HTTP application over a store the
        // command line has opened.
        .target(
            name: "VetNetServer",
            dependencies: [
                "SharedKernel", "StoragePorts", "StorageSupport", "PracticeServices", "HTTPAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "vetnet",
            dependencies: [
                "SharedKernel", "PatientRecords", "Triage", "Scheduling", "Specialists", "Analytics", "StoragePorts",
                "StorageSupport", "StorageSQLite", "StoragePostgres", "PracticeServices", "VetNetServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),

        // MARK: - Tests (domain, storage, application tiers)
        .testTarget(name: "SharedKernelTests", dependencies: ["SharedKernel"], swiftSettings: strict),
        .testTarget(
            name: "TriageTests",
            dependencies: ["Triage", "SharedKernel", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PatientRecordsTests",
            dependencies: [
                "PatientRecords", "SharedKernel", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SpecialistsTests",
            dependencies: [
                "Specialists", "SharedKernel", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SchedulingTests",
            dependencies: [
                "Scheduling", "SharedKernel", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AnalyticsTests",
            dependencies: ["Analytics", "SharedKernel", "Scheduling", "Specialists", "Triage"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "StorageSQLiteTests",
            dependencies: [
                "StoragePorts", "StorageSupport", "StorageSQLite", "SharedKernel", "PatientRecords", "Triage",
                "Scheduling", "Specialists", "Analytics",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "StorageContractTests",
            dependencies: [
                "StoragePorts", "StorageSupport", "StorageSQLite", "StoragePostgres", "SharedKernel", "Scheduling",
                "Specialists", "PatientRecords", "Triage", "Analytics",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HTTPAPITests",
            dependencies: [
                "HTTPAPI", "PracticeServices", "StoragePorts", "StorageSupport", "StorageSQLite", "SharedKernel",
                "PatientRecords", "Triage", "Scheduling", "Specialists", "Analytics",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),

        // MARK: - Booking on SQLite and PostgreSQL side by side (Benchmarks/postgres/run.sh)
        .executableTarget(
            name: "vetnet-booking-bench",
            dependencies: [
                "SharedKernel", "Scheduling", "Specialists", "PatientRecords", "StoragePorts", "StorageSupport",
                "StorageSQLite", "StoragePostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/postgres/Sources",
            swiftSettings: strict
        ),

        // MARK: - Benchmarks (ordo-one/package-benchmark; `swift package benchmark`)
        .executableTarget(
            name: "VetNetBenchmarks",
            dependencies: [
                "SharedKernel", "Triage", "Scheduling", "StorageSQLite",
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/VetNetBenchmarks",
            swiftSettings: strict,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
