import Foundation
import SwiftApiDsl

// A mock starts requests like a client, so tests read the same: `mock.get("todos").perform()`
// is `mock.client.get("todos").perform()`. The verbs are declared on the type itself so that
// editors offer them first after `mock.`; each forwards to ``ApiClientMock/client``.

extension ApiClientMock: RequestStarting {
    /// Starts a request with any method on ``client``; see ``SwiftApiDsl/ApiClient/request(_:_:bypassAuth:body:jsonEncoder:)``.
    public func request(
        _ method: HttpMethod = .get, _ path: String? = nil, bypassAuth: Bool = false,
        body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil
    ) -> RequestBuilder {
        mockedClient.request(method, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a GET request on ``client``.
    public func get(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        mockedClient.get(path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a POST request on ``client``.
    public func post(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        mockedClient.post(path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a PUT request on ``client``.
    public func put(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        mockedClient.put(path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a PATCH request on ``client``.
    public func patch(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        mockedClient.patch(path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a DELETE request on ``client``.
    public func delete(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        mockedClient.delete(path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts a HEAD request on ``client``.
    public func head(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        mockedClient.head(path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Starts an OPTIONS request on ``client``.
    public func options(_ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil) -> RequestBuilder {
        mockedClient.options(path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }
}
