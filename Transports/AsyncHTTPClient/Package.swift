// swift-tools-version:6.0
import PackageDescription

// The AsyncHTTPClient transport lives in its own package so that the library itself keeps zero
// package dependencies: only those who opt in build SwiftNIO and AsyncHTTPClient.
let package = Package(
    name: "SwiftApiDslAsyncHTTPClient",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "SwiftApiDslAsyncHTTPClient", targets: ["SwiftApiDslAsyncHTTPClient"]),
    ],
    dependencies: [
        .package(name: "SwiftApiDsl", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        // Already one of AsyncHTTPClient's: named for `TLSConfiguration`, which `TLSSettings` become.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
    ],
    targets: [
        .target(
            name: "SwiftApiDslAsyncHTTPClient",
            dependencies: [
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "AsyncHTTPClientWireTests",
            dependencies: [
                "SwiftApiDslAsyncHTTPClient",
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                // An event loop group of the test's own, which counts the loops picked from it.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
