#if AsyncHTTPClient
import Foundation
import SwiftApiDsl

extension ApiClient {
    /// Creates a client that sends its requests with AsyncHTTPClient through `transport`.
    ///
    /// ```swift
    /// let client = ApiClient(asyncHTTPClient: .shared, baseUrl: url)
    /// ```
    /// Pass ``AsyncHTTPClientTransport/shared`` for the process-wide client, or a transport you
    /// made with your own configuration (and shut down with ``AsyncHTTPClientTransport/shutdown()``).
    public init(
        asyncHTTPClient transport: AsyncHTTPClientTransport,
        baseUrl: URL,
        jsonEncoder: JSONEncoder = JSONEncoder(),
        jsonDecoder: JSONDecoder = JSONDecoder()
    ) {
        self.init(transport: transport, baseUrl: baseUrl, jsonEncoder: jsonEncoder, jsonDecoder: jsonDecoder)
    }
}
#endif
