import Foundation

extension ApiClient: RequestStarting {
    /// Starts a request with any method. The shorthands `get`, `post`, `put`, `patch`, `delete`,
    /// `head` and `options` come from ``RequestStarting``.
    ///
    /// ```swift
    /// client.request(.get, "users/7")
    /// client.request(HttpMethod("PURGE"), "cache", bypassAuth: true)
    /// ```
    public func request(
        _ method: HttpMethod = .get, _ path: String? = nil, bypassAuth: Bool = false,
        body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil
    ) -> RequestBuilder {
        RequestBuilder(client: self, method: method, path: path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }
}
