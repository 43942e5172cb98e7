// swift-tools-version:6.0
import PackageDescription

// Benchmarks for SwiftApiDsl, run by Scripts/bench in release mode. A package of its own so that
// neither the library nor its tests depend on AsyncHTTPClient.
let package = Package(
    name: "SwiftApiDslBenchmarks",
    platforms: [.macOS(.v13)],
    products: [
        // The clocks and the measuring loop, also used by Integrations/OpenAPI's benchmark.
        .library(name: "BenchmarkClock", targets: ["BenchmarkClock"]),
    ],
    dependencies: [
        .package(name: "SwiftApiDsl", path: ".."),
        .package(path: "../Transports/AsyncHTTPClient"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
    ],
    targets: [
        .target(name: "BenchmarkClock"),
        .executableTarget(
            name: "SwiftApiDslBenchmarks",
            dependencies: [
                "BenchmarkClock",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslMock", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslAsyncHTTPClient", package: "AsyncHTTPClient"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
