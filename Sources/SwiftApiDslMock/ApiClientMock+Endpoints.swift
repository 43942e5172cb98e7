import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

// A mock performs endpoints, absolute URLs, pages and resources like a client, so tests read
// the same: `mock.perform(Todos.todo(id: 7))` is `mock.client.perform(Todos.todo(id: 7))`.

extension ApiClientMock {
    /// Starts a request to an absolute URL on ``client``; see ``SwiftApiDsl/ApiClient/request(_:url:bypassAuth:body:jsonEncoder:)``.
    public func request(
        _ method: HttpMethod = .get, url: URL, bypassAuth: Bool = false,
        body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil
    ) -> RequestBuilder {
        client.request(method, url: url, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }

    /// Performs `endpoint` on ``client`` and returns its value.
    @discardableResult
    public func perform<Value>(_ endpoint: Endpoint<Value>) async throws -> Value {
        try await client.perform(endpoint)
    }

    /// Performs `endpoint` on ``client`` and returns its value with the `HTTPURLResponse`.
    public func response<Value>(for endpoint: Endpoint<Value>) async throws -> Response<Value> {
        try await client.response(for: endpoint)
    }

    /// Downloads `endpoint` on ``client`` to `destination` (the mocked body is written there).
    @discardableResult
    public func download<Value>(_ endpoint: Endpoint<Value>, destination: URL, resumable: Bool = false) async throws -> HTTPURLResponse {
        try await client.download(endpoint, destination: destination, resumable: resumable)
    }

    /// The `URLRequest` ``client`` would send for `endpoint`; nothing is sent or recorded.
    public func urlRequest<Value>(for endpoint: Endpoint<Value>) async throws -> URLRequest {
        try await client.urlRequest(for: endpoint)
    }

    /// The pages of `first` and the ones `next` leads to, loaded through ``client``; each page is recorded.
    public func pages<Page>(_ first: Endpoint<Page>, next: PageLink<Page>) -> Pages<Page> {
        client.pages(first, next: next)
    }

    /// A shared, observable loader of `endpoint` on ``client``; see ``SwiftApiDsl/Resource``.
    public func resource<Value: Sendable>(_ endpoint: Endpoint<Value>) -> Resource<Value> {
        client.resource(endpoint)
    }
}
