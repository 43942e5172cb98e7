// swift-tools-version:6.0
import PackageDescription

// A consumer of the library, as an app would be, for Scripts/completion_test.py: sourcekit-lsp
// completes inside Sources/Consumer/Consumer.swift and the script checks what an editor offers.
let package = Package(
    name: "CompletionConsumer",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    dependencies: [
        .package(name: "SwiftApiDsl", path: "../../.."),
    ],
    targets: [
        .target(
            name: "Consumer",
            dependencies: [
                .product(name: "SwiftApiDsl", package: "SwiftApiDsl"),
                .product(name: "SwiftApiDslMock", package: "SwiftApiDsl"),
                // `resource(_:)` comes with the cache product, as in an app that uses it.
                .product(name: "SwiftApiDslCache", package: "SwiftApiDsl"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
