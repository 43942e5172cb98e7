import Foundation

/// A value that starts requests: ``ApiClient``, and anything that stands for one (such as
/// `SwiftApiDslMock`'s `ApiClientMock`). It implements ``request(_:_:bypassAuth:body:jsonEncoder:)``
/// and gets the shorthands `get`, `post`, `put`, `patch`, `delete`, `head` and `options`.
///
/// Every parameter may be omitted: `client.get()` requests the base URL itself. `path` is
/// resolved against the base URL (see ``RequestBuilder``); `body` is encoded as JSON with
/// `jsonEncoder`, else the client's encoder, and sets `Content-Type: application/json`;
/// `bypassAuth` skips the client's authentication.
public protocol RequestStarting: Sendable {
    /// Starts a request with any method.
    ///
    /// ```swift
    /// client.request(.get, "users/7")
    /// client.request(HttpMethod("PURGE"), "cache")
    /// ```
    func request(_ method: HttpMethod, _ path: String?, bypassAuth: Bool, body: (any Encodable)?, jsonEncoder: JSONEncoder?) -> RequestBuilder
}

extension RequestStarting {
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
}
