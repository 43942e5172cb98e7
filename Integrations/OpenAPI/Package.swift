// swift-tools-version:6.2
import PackageDescription

// An `ApiClient` as a swift-openapi-runtime `ClientTransport`: a client written by
// swift-openapi-generator sends every operation through the library's whole chain. A nested
// package, so that the library itself keeps zero package dependencies: only an app that opts in
// builds swift-openapi-runtime and swift-http-types.
let package = Package(
    name: "SwiftApiDslOpenAPI",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "SwiftApiDslOpenAPI", targets: ["SwiftApiDslOpenAPI"]),
    ],
    dependencies: [
        .package(name: "SwiftApiDsl", path: "../.."),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // For the tests only: the second engine, and the plain adapters the tests compare against.
        .package(path: "../../Transports/AsyncHTTPClient"),
        // The benchmarks' clocks and measuring loop, for OpenAPIBenchmark.
        .package(name: "SwiftApiDslBenchmarks", path: "../../Benchmarks"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        // For the benchmark only: the plain adapter's HTTPClient, configured like the library's.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        .target(
            name: "SwiftApiDslOpenAPI",
            dependencies: [
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The client swift-openapi-generator wrote from a real third-party server's own
        // openapi.json (committed; Scripts/openapi-generate writes it again).
        .target(
            name: "GeneratedClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        // The same from Label Studio's own document, for an upload (multipart/form-data) to a
        // second real server (Scripts/openapi-generate --server labelstudio writes it again).
        .target(
            name: "GeneratedUploadClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        .testTarget(
            name: "OpenAPITransportTests",
            dependencies: [
                "SwiftApiDslOpenAPI",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslMock", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslAsyncHTTPClient", package: "AsyncHTTPClient"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // An app's module: main-actor isolation by default, using the public API as an app does.
        .testTarget(
            name: "OpenAPIMainActorTests",
            dependencies: [
                "SwiftApiDslOpenAPI",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslMock", package: "SwiftApiDsl"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        .testTarget(
            name: "GeneratedClientWireTests",
            dependencies: [
                "GeneratedClient",
                "GeneratedUploadClient",
                "SwiftApiDslOpenAPI",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslMock", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslAsyncHTTPClient", package: "AsyncHTTPClient"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The generated client over ApiClientTransport against the plain AsyncHTTPClient adapter,
        // interleaved in one process: `Scripts/bench --only openapi` runs it in release mode.
        .executableTarget(
            name: "OpenAPIBenchmark",
            dependencies: [
                "GeneratedClient",
                "SwiftApiDslOpenAPI",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslAsyncHTTPClient", package: "AsyncHTTPClient"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "BenchmarkClock", package: "SwiftApiDslBenchmarks"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
