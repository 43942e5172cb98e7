// swift-tools-version:6.1
import Foundation
import PackageDescription

// One URL for every product. `SwiftApiDsl` and `SwiftApiDslMock` depend on Foundation alone; the
// products a service opts into are behind package traits, none enabled by default, so a default
// consumer resolves no other package. A service names the traits on its `.package` line:
//
//     .package(url: "https://github.com/PittsCraft/SwiftApiDsl.git", branch: "main",
//              traits: ["AsyncHTTPClient", "ServerObservability"]),
//
// Each opt-in's sources are wrapped in `#if TraitName`, so a product whose trait is off builds
// as an empty module. The project's tests run with every trait on (`Scripts/test`).
let optIns = ["AsyncHTTPClient", "OpenAPI", "ServerObservability"]
// The Swift Package Index builds documentation with the default traits only (swift-docc-plugin
// has no way to name others), so its builds, which set SPI_PROCESSING, turn them all on.
let documentationBuild = ProcessInfo.processInfo.environment["SPI_PROCESSING"] == "1"

let package = Package(
    name: "SwiftApiDsl",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "SwiftApiDsl", targets: ["SwiftApiDsl"]),
        .library(name: "SwiftApiDslMock", targets: ["SwiftApiDslMock"]),
        .library(name: "SwiftApiDslCache", targets: ["SwiftApiDslCache"]),
        .library(name: "SwiftApiDslAsyncHTTPClient", targets: ["SwiftApiDslAsyncHTTPClient"]),
        .library(name: "SwiftApiDslOpenAPI", targets: ["SwiftApiDslOpenAPI"]),
        .library(name: "SwiftApiDslServerObservability", targets: ["SwiftApiDslServerObservability"]),
    ],
    traits: [
        .trait(name: "AsyncHTTPClient", description: "SwiftApiDslAsyncHTTPClient: the AsyncHTTPClient (SwiftNIO) engine."),
        .trait(name: "OpenAPI", description: "SwiftApiDslOpenAPI: an ApiClient as the transport of a swift-openapi-generator client."),
        .trait(name: "ServerObservability", description: "SwiftApiDslServerObservability: tracing, metrics and logging through swift-distributed-tracing, swift-metrics and swift-log."),
        .default(enabledTraits: documentationBuild ? Set(optIns) : []),
    ],
    dependencies: [
        // Resolved only for a consumer that enables the trait that uses them.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
        // The project's own tests only (test targets are never built for a consumer): the plain
        // OpenAPI adapters the tests compare against, and an export through swift-otel's OTLP/HTTP
        // exporter (its gRPC exporter is left out by the trait, so it is not built).
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.4.1"),
    ],
    targets: [
        .target(name: "SwiftApiDsl"),
        .target(name: "SwiftApiDslMock", dependencies: ["SwiftApiDsl"]),
        // The HTTP cache and `Resource`, on the core's public seams: a middleware like any other.
        .target(name: "SwiftApiDslCache", dependencies: ["SwiftApiDsl"]),
        .target(
            name: "SwiftApiDslAsyncHTTPClient",
            dependencies: [
                "SwiftApiDsl",
                engine("AsyncHTTPClient", "async-http-client"),
                engine("NIOCore", "swift-nio"),
                engine("NIOConcurrencyHelpers", "swift-nio"),
                engine("NIOFoundationCompat", "swift-nio"),
                engine("NIOHTTP1", "swift-nio"),
                engine("NIOSSL", "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "SwiftApiDslOpenAPI",
            dependencies: [
                "SwiftApiDsl",
                openAPI("OpenAPIRuntime", "swift-openapi-runtime"),
                openAPI("HTTPTypes", "swift-http-types"),
            ]
        ),
        .target(
            name: "SwiftApiDslServerObservability",
            dependencies: [
                "SwiftApiDsl",
                observability("Logging", "swift-log"),
                observability("CoreMetrics", "swift-metrics"),
                observability("Tracing", "swift-distributed-tracing"),
            ]
        ),

        .executableTarget(name: "Examples", dependencies: ["SwiftApiDsl"]),
        // The API layers of the seed apps (docs/seeds), ported to endpoints: examples, not products.
        .target(name: "TodoApi", dependencies: ["SwiftApiDsl", "SwiftApiDslCache"], path: "Examples/TodoApi"),
        .target(name: "VitesseApi", dependencies: ["SwiftApiDsl"], path: "Examples/VitesseApi"),
        .target(name: "GutendexApi", dependencies: ["SwiftApiDsl"], path: "Examples/GutendexApi"),
        // Clients swift-openapi-generator wrote from two real servers' own documents, for the
        // tests (Scripts/openapi-generate writes them again): fixtures, not products.
        .target(name: "GeneratedClient", dependencies: [openAPI("OpenAPIRuntime", "swift-openapi-runtime")],
                path: "Tests/Fixtures/GeneratedClient"),
        .target(name: "GeneratedUploadClient", dependencies: [openAPI("OpenAPIRuntime", "swift-openapi-runtime")],
                path: "Tests/Fixtures/GeneratedUploadClient"),

        .testTarget(name: "SwiftApiDslTests", dependencies: ["SwiftApiDsl", "SwiftApiDslCache"]),
        // The wire suites in WireTests/Shared run once per engine: here over URLSession, and in
        // AsyncHTTPClientWireTests (a link to the same folder) when that engine's trait is on.
        .testTarget(name: "WireTests", dependencies: ["SwiftApiDsl", "SwiftApiDslCache"], swiftSettings: [.define("WIRE_SUITES")]),
        .testTarget(
            name: "AsyncHTTPClientWireTests",
            dependencies: [
                "SwiftApiDsl", "SwiftApiDslCache", "SwiftApiDslAsyncHTTPClient",
                // An event loop group of the test's own, which counts the loops picked from it;
                // plain clients, the engine's own floor.
                engine("AsyncHTTPClient", "async-http-client"),
                engine("NIOSSL", "swift-nio-ssl"),
                engine("NIOCore", "swift-nio"),
                engine("NIOPosix", "swift-nio"),
                engine("NIOConcurrencyHelpers", "swift-nio"),
            ],
            swiftSettings: [.define("WIRE_SUITES", .when(traits: ["AsyncHTTPClient"]))]
        ),
        .testTarget(name: "SwiftApiDslMockTests", dependencies: ["SwiftApiDsl", "SwiftApiDslCache", "SwiftApiDslMock"]),
        .testTarget(name: "ExampleApiTests", dependencies: ["SwiftApiDsl", "SwiftApiDslCache", "SwiftApiDslMock", "TodoApi", "VitesseApi", "GutendexApi"]),
        .testTarget(
            name: "OpenAPITransportTests",
            dependencies: [
                "SwiftApiDsl", "SwiftApiDslCache", "SwiftApiDslMock", "SwiftApiDslOpenAPI", "SwiftApiDslAsyncHTTPClient",
                openAPI("OpenAPIRuntime", "swift-openapi-runtime"),
                openAPI("HTTPTypes", "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "GeneratedClientWireTests",
            dependencies: [
                "GeneratedClient", "GeneratedUploadClient",
                "SwiftApiDsl", "SwiftApiDslCache", "SwiftApiDslMock", "SwiftApiDslOpenAPI", "SwiftApiDslAsyncHTTPClient",
                openAPI("OpenAPIRuntime", "swift-openapi-runtime"),
                openAPI("HTTPTypes", "swift-http-types"),
                openAPI("OpenAPIAsyncHTTPClient", "swift-openapi-async-http-client"),
                openAPI("OpenAPIURLSession", "swift-openapi-urlsession"),
            ]
        ),
        .testTarget(
            name: "ServerObservabilityTests",
            dependencies: [
                "SwiftApiDsl", "SwiftApiDslCache", "SwiftApiDslMock", "SwiftApiDslServerObservability", "SwiftApiDslAsyncHTTPClient",
                observability("InMemoryTracing", "swift-distributed-tracing"),
                observability("Tracing", "swift-distributed-tracing"),
                observability("MetricsTestKit", "swift-metrics"),
                observability("Logging", "swift-log"),
                engine("AsyncHTTPClient", "async-http-client"),
            ]
        ),
        // An end-to-end run: spans and metrics exported by swift-otel over OTLP/HTTP to a receiver
        // the test starts on loopback.
        .testTarget(
            name: "OTelExportTests",
            dependencies: [
                "SwiftApiDsl", "SwiftApiDslServerObservability",
                observability("OTel", "swift-otel"),
                observability("ServiceLifecycle", "swift-service-lifecycle"),
                observability("NIOCore", "swift-nio"),
                observability("NIOPosix", "swift-nio"),
                observability("NIOHTTP1", "swift-nio"),
                observability("NIOConcurrencyHelpers", "swift-nio"),
                observability("Tracing", "swift-distributed-tracing"),
                observability("Logging", "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// A product of a package that only the `AsyncHTTPClient` trait resolves.
func engine(_ name: String, _ package: String) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: ["AsyncHTTPClient"]))
}

/// A product of a package that only the `OpenAPI` trait resolves.
func openAPI(_ name: String, _ package: String) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: ["OpenAPI"]))
}

/// A product of a package that only the `ServerObservability` trait resolves.
func observability(_ name: String, _ package: String) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: ["ServerObservability"]))
}
