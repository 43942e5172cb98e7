#if AsyncHTTPClient
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient

/// The transport the shared wire tests (`Shared/`, a link to the root package's cases) run on
/// in this package: AsyncHTTPClient.
enum WireTransport {
    /// The process-wide transport, as `ApiClient(asyncHTTPClient: .shared, …)` gives it.
    static let shared: any HTTPTransport = AsyncHTTPClientTransport.shared

    /// A transport of its own, with its own connection pool, for a test that needs to know which
    /// connection a request goes on. Its client is shut down when the transport goes away.
    static func fresh() -> any HTTPTransport { AsyncHTTPClientTransport() }
}
#endif
