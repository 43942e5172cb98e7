import Foundation

// The verbs are declared on the type itself, not only inherited from `RequestStarting`: editors
// rank a type's own members first, so `client.` offers them before any setting.

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

    /// Starts a GET request: `client.get("users/7")`.
    public func get(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.get, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a POST request: `client.post("todos", body: newTodo)`.
    public func post(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.post, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a PUT request: `client.put("todos/7", body: todo)`.
    public func put(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.put, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a PATCH request: `client.patch("todos/7", body: change)`.
    public func patch(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.patch, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a DELETE request: `client.delete("todos/7")`.
    public func delete(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.delete, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a HEAD request: `client.head("files/7")`.
    public func head(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.head, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts an OPTIONS request: `client.options("todos")`.
    public func options(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.options, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
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
