import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient

/// The transport the shared wire tests (`Shared/`, a link to the root package's cases) run on
/// in this package: AsyncHTTPClient.
enum WireTransport {
    /// The process-wide transport, as `ApiClient(asyncHTTPClient: .shared, …)` gives it.
    static let shared: any HTTPTransport = AsyncHTTPClientTransport.shared
}
