// swift-tools-version:6.1
import PackageDescription

// Benchmarks for SwiftApiDsl, run by Scripts/bench in release mode. A package of its own so that
// neither the library nor its tests depend on the peers measured here; it takes the library's
// opt-in products by path, with their traits on, as a service would by URL.
let package = Package(
    name: "SwiftApiDslBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "SwiftApiDsl", path: "..", traits: ["AsyncHTTPClient", "OpenAPI", "ServerObservability"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
    ],
    targets: [
        // The clocks and the measuring loop every benchmark here shares.
        .target(name: "BenchmarkClock"),
        .executableTarget(
            name: "SwiftApiDslBenchmarks",
            dependencies: [
                "BenchmarkClock",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslMock", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslCache", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslAsyncHTTPClient", package: "SwiftApiDsl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),
        // The client generated from Airflow's document (a link to the tests' fixture; its files
        // are wrapped in the root package's `#if OpenAPI`, defined here).
        .target(
            name: "GeneratedClient",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            swiftSettings: [.define("OpenAPI")]
        ),
        // The generated client over ApiClientTransport against the plain AsyncHTTPClient adapter,
        // interleaved in one process: `Scripts/bench --only openapi`.
        .executableTarget(
            name: "OpenAPIBenchmark",
            dependencies: [
                "BenchmarkClock",
                "GeneratedClient",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslOpenAPI", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslAsyncHTTPClient", package: "SwiftApiDsl"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // What tracing, metrics and logging cost per call: `swift run -c release --package-path Benchmarks ObservabilityCost`.
        .executableTarget(
            name: "ObservabilityCost",
            dependencies: [
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslMock", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslServerObservability", package: "SwiftApiDsl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
