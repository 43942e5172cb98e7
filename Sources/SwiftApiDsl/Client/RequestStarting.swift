import Foundation

/// A value that starts requests and performs endpoints through a client: ``ApiClient`` itself,
/// and `SwiftApiDslMock`'s `ApiClientMock`. Everything here is declared once, in this protocol's
/// extension, so a mock starts and performs exactly as the client it stands for.
///
/// Every parameter may be omitted: `client.get()` requests the base URL itself. `path` is
/// resolved against the base URL (see ``RequestBuilder``); `body` is encoded as JSON with
/// `jsonEncoder`, else the client's encoder, and sets `Content-Type: application/json`;
/// `bypassAuth` skips the client's authentication.
public protocol RequestStarting: Sendable {
    /// The client the requests go through: the client itself, or the mock's client.
    var client: ApiClient { get }
}

extension RequestStarting {
    // The verbs are properties, each a ``RequestVerb`` called like a method (`client.get("users")`):
    // editors rank a protocol extension's properties above its methods, so `client.` and `mock.`
    // list the verbs before the configuration calls, from this one declaration.

    /// Starts GET requests: `client.get("users/7")`.
    public var get: RequestVerb { RequestVerb(client: client, method: .get) }
    /// Starts POST requests: `client.post("todos", body: newTodo)`.
    public var post: RequestVerb { RequestVerb(client: client, method: .post) }
    /// Starts PUT requests: `client.put("todos/7", body: todo)`.
    public var put: RequestVerb { RequestVerb(client: client, method: .put) }
    /// Starts PATCH requests: `client.patch("todos/7", body: change)`.
    public var patch: RequestVerb { RequestVerb(client: client, method: .patch) }
    /// Starts DELETE requests: `client.delete("todos/7")`.
    public var delete: RequestVerb { RequestVerb(client: client, method: .delete) }
    /// Starts HEAD requests: `client.head("files/7")`.
    public var head: RequestVerb { RequestVerb(client: client, method: .head) }
    /// Starts OPTIONS requests: `client.options("todos")`.
    public var options: RequestVerb { RequestVerb(client: client, method: .options) }

    /// Starts a request with any method.
    ///
    /// ```swift
    /// client.request(.get, "users/7")
    /// client.request(HttpMethod("PURGE"), "cache", bypassAuth: true)
    /// ```
    public func request(
        _ method: HttpMethod = .get, _ path: String? = nil, bypassAuth: Bool = false,
        body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil
    ) -> RequestBuilder {
        RequestBuilder(client: client, method: method, path: path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a request to an absolute URL, such as a `next` link or an endpoint on another
    /// server, through the client's modifiers and validators.
    ///
    /// ```swift
    /// let page: Page = try await client.request(url: page.next).perform()
    /// ```
    /// The client's authentication is added only when `url` has the base URL's origin (scheme,
    /// host, port); see ``CallDescribing/authenticatingAnyOrigin()``. A URL without a scheme and
    /// host fails the request as ``RequestError/modify(_:_:)``.
    public func request(
        _ method: HttpMethod = .get, url: URL, bypassAuth: Bool = false,
        body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil
    ) -> RequestBuilder {
        RequestBuilder(client: client, method: method, path: nil, url: url, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }
}

/// One HTTP method on one client, called like a method to start a request: `client.get`,
/// `client.post`… (see ``RequestStarting``).
///
/// ```swift
/// let todo: Todo = try await client.get("todos/7").perform()
/// try await client.post("todos", body: newTodo).perform()
/// ```
public struct RequestVerb: Sendable {
    let client: ApiClient
    let method: HttpMethod

    /// Starts a request with this method; see ``RequestStarting/request(_:_:bypassAuth:body:jsonEncoder:)``.
    public func callAsFunction(
        _ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil
    ) -> RequestBuilder {
        client.request(method, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }
}
