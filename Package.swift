// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SwiftApiDsl",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "SwiftApiDsl", targets: ["SwiftApiDsl"]),
        .library(name: "SwiftApiDslMock", targets: ["SwiftApiDslMock"]),
    ],
    // The library promises zero package dependencies: tools that only the project
    // itself needs live in nested packages (Transports/, Benchmarks/).
    dependencies: [],
    targets: [
        .target(name: "SwiftApiDsl"),
        .target(name: "SwiftApiDslMock", dependencies: ["SwiftApiDsl"]),
        .executableTarget(name: "Examples", dependencies: ["SwiftApiDsl"]),
        // The API layers of the seed apps (docs/seeds), ported to endpoints: examples, not products.
        .target(name: "TodoApi", dependencies: ["SwiftApiDsl"], path: "Examples/TodoApi"),
        .target(name: "VitesseApi", dependencies: ["SwiftApiDsl"], path: "Examples/VitesseApi"),
        .target(name: "GutendexApi", dependencies: ["SwiftApiDsl"], path: "Examples/GutendexApi"),
        .testTarget(name: "SwiftApiDslTests", dependencies: ["SwiftApiDsl"]),
        .testTarget(name: "WireTests", dependencies: ["SwiftApiDsl"]),
        .testTarget(name: "SwiftApiDslMockTests", dependencies: ["SwiftApiDsl", "SwiftApiDslMock"]),
        .testTarget(name: "ExampleApiTests", dependencies: ["SwiftApiDsl", "SwiftApiDslMock", "TodoApi", "VitesseApi", "GutendexApi"]),
    ],
    swiftLanguageModes: [.v6]
)
