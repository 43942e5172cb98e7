import Foundation

// `request` is the one requirement of `RequestStarting`; the shorthand verbs (`get`, `post`…) are
// declared once, in that protocol's extension, for the client and the mock alike.

extension ApiClient: RequestStarting {
    /// Starts a request with any method.
    ///
    /// ```swift
    /// client.request(.get, "users/7")
    /// client.request(HttpMethod("PURGE"), "cache", bypassAuth: true)
    /// ```
    /// `path` is resolved against ``baseUrl`` (see ``RequestBuilder``); `body` is encoded as JSON
    /// with `jsonEncoder`, else the client's, and sets `Content-Type: application/json`;
    /// `bypassAuth` skips the client's authentication.
    public func request(
        _ method: HttpMethod = .get, _ path: String? = nil, bypassAuth: Bool = false,
        body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil
    ) -> RequestBuilder {
        RequestBuilder(client: self, method: method, path: path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a request to an absolute URL, such as a `next` link or an endpoint on another
    /// server, through this client's modifiers and validators.
    ///
    /// ```swift
    /// let page: Page = try await client.request(url: page.next).perform()
    /// ```
    /// The client's authentication is added only when `url` has the base URL's origin (scheme,
    /// host, port); see ``RequestBuilder/authenticatingAnyOrigin()``. A URL without a scheme and
    /// host fails the request as ``RequestError/modify(_:_:)``.
    public func request(
        _ method: HttpMethod = .get, url: URL, bypassAuth: Bool = false,
        body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil
    ) -> RequestBuilder {
        RequestBuilder(client: self, method: method, path: nil, url: url, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }
}
