import Foundation
import SwiftApiDsl

// The request starters of `ApiClient`, so a mock reads like a client in tests:
// `mock.get("todos").perform()` is `mock.client.get("todos").perform()`.

extension ApiClientMock {
    /// Starts a request with any method on ``client``; see ``SwiftApiDsl/ApiClient/request(_:_:bypassAuth:body:jsonEncoder:)``.
    public func request(
        _ method: HttpMethod = .get, _ path: String? = nil, bypassAuth: Bool = false,
        body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil
    ) -> RequestBuilder {
        client.request(method, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a GET request on ``client``.
    public func get(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.get, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a POST request on ``client``.
    public func post(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.post, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a PUT request on ``client``.
    public func put(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.put, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a PATCH request on ``client``.
    public func patch(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.patch, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a DELETE request on ``client``.
    public func delete(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.delete, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a HEAD request on ``client``.
    public func head(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.head, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts an OPTIONS request on ``client``.
    public func options(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        request(.options, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }
}
