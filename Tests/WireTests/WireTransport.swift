import SwiftApiDsl

/// The transport the shared wire tests run on in this package: URLSession.
/// (Each transport package gives its own; the cases in `Shared/` are the same for all.)
enum WireTransport {
    static let shared: any HTTPTransport = URLSessionTransport()

    /// A transport of its own, with its own connection pool, for a test that needs to know which
    /// connection a request goes on.
    static func fresh() -> any HTTPTransport { URLSessionTransport(configuration: .ephemeral) }
}
