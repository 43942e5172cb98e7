import Foundation
import SwiftApiDsl

// A mock starts requests like a client, so tests read the same: `mock.get("todos").perform()`
// is `mock.client.get("todos").perform()`. The mock implements `request`, which forwards to
// ``ApiClientMock/client``; the shorthand verbs come from `RequestStarting`, as on a client.

extension ApiClientMock: RequestStarting {
    /// Starts a request with any method on ``client``; see ``SwiftApiDsl/ApiClient/request(_:_:bypassAuth:body:jsonEncoder:)``.
    public func request(
        _ method: HttpMethod = .get, _ path: String? = nil, bypassAuth: Bool = false,
        body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil
    ) -> RequestBuilder {
        mockedClient.request(method, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }
}
