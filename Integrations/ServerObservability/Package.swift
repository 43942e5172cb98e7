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
        .testTarget(
            name: "ServerObservabilityTests",
            dependencies: [
                "SwiftApiDslServerObservability",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslMock", package: "SwiftApiDsl"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
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
