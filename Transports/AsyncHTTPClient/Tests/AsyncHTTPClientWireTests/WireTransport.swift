import Foundation
import SwiftApiDsl
import Foundation
import SwiftApiDslAsyncHTTPClient

/// The transport the shared wire tests (`Shared/`, a link to the root package's cases) run on
/// in this package: AsyncHTTPClient. `SWIFTAPIDSL_PER_CHUNK=1` hands every body over chunk by
/// chunk (`bufferedCalls: false`): `Scripts/test` runs the suites both ways.
enum WireTransport {
    static let bufferedCalls = ProcessInfo.processInfo.environment["SWIFTAPIDSL_PER_CHUNK"] != "1"

    /// The process-wide transport, as `ApiClient(asyncHTTPClient: .shared, …)` gives it, or
    /// one that never gathers a buffered body.
    static let shared: any HTTPTransport = bufferedCalls ? AsyncHTTPClientTransport.shared : AsyncHTTPClientTransport(bufferedCalls: false)

    /// A transport of its own, with its own connection pool, for a test that needs to know which
    /// connection a request goes on. Its client is shut down when the transport goes away.
    static func fresh() -> any HTTPTransport { AsyncHTTPClientTransport(bufferedCalls: bufferedCalls) }
}
