// swift-tools-version:6.2
import PackageDescription

// Tracing, metrics and logging for servers, through apple/swift-distributed-tracing, swift-metrics
// and swift-log. A nested package, so that the library itself keeps zero package dependencies:
// only a service that opts in builds these three.
let package = Package(
    name: "SwiftApiDslServerObservability",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "SwiftApiDslServerObservability", targets: ["SwiftApiDslServerObservability"]),
    ],
    dependencies: [
        .package(name: "SwiftApiDsl", path: "../.."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
        // For tests only: the second engine, and an end-to-end export through OpenTelemetry's
        // OTLP/HTTP exporter (its gRPC exporter is left out by the trait, so it is not built).
        .package(name: "SwiftApiDslAsyncHTTPClient", path: "../../Transports/AsyncHTTPClient"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        // Already swift-otel's: named for the test's OTLP receiver and for running the exporters.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.4.1"),
    ],
    targets: [
        .target(
            name: "SwiftApiDslServerObservability",
            dependencies: [
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // What tracing, metrics and logging cost per call: `swift run -c release ObservabilityCost`
        // (Performance article). Not a test: timings are reported, never asserted.
        .executableTarget(
            name: "ObservabilityCost",
            dependencies: [
                "SwiftApiDslServerObservability",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslMock", package: "SwiftApiDsl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ServerObservabilityTests",
            dependencies: [
                "SwiftApiDslServerObservability",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslMock", package: "SwiftApiDsl"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SwiftApiDslAsyncHTTPClient", package: "SwiftApiDslAsyncHTTPClient"),
            ]
        ),
        // An end-to-end run: spans and metrics exported by swift-otel over OTLP/HTTP to a receiver
        // the test starts on loopback.
        .testTarget(
            name: "OTelExportTests",
            dependencies: [
                "SwiftApiDslServerObservability",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The one-call API as an app uses it: compiled with main-actor isolation by default.
        .testTarget(
            name: "MainActorAppTests",
            dependencies: [
                "SwiftApiDslServerObservability",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslMock", package: "SwiftApiDsl"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
