import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Declared once for ``ApiClient`` and the mock: `mock.perform(endpoint)` is `mock.client.perform(endpoint)`.

extension RequestStarting {
    /// Sends `endpoint` and returns its decoded value.
    ///
    /// ```swift
    /// let todo = try await client.perform(Todos.todo(id: 7))
    /// ```
    @discardableResult
    public func perform<Value>(_ endpoint: Endpoint<Value>) async throws -> Value {
        try await response(for: endpoint).body
    }

    /// Sends `endpoint` and returns its decoded value with the `HTTPURLResponse`.
    ///
    /// ```swift
    /// let response = try await client.response(for: Todos.todo(id: 7))
    /// print(response.statusCode, response.body.title)
    /// ```
    public func response<Value>(for endpoint: Endpoint<Value>) async throws -> Response<Value> {
        try await endpoint.performed(on: client).response
    }

    /// Sends `endpoint` and streams its body to `destination`, as
    /// ``RequestBuilder/download(destination:resumable:)`` does (see there for `resumable`);
    /// the endpoint's decoding is not used.
    @discardableResult
    public func download<Value>(_ endpoint: Endpoint<Value>, destination: URL, resumable: Bool = false) async throws -> HTTPURLResponse {
        try await endpoint.request(on: client).download(destination: destination, resumable: resumable)
    }

    /// The `URLRequest` the client would send for `endpoint` (base URL, modifiers and
    /// authentication applied), without sending or recording it: an API description is testable offline.
    ///
    /// ```swift
    /// let request = try await client.urlRequest(for: Todos.todo(id: 7))
    /// #expect(request.url?.absoluteString == "https://example.com/api/todos/7")
    /// ```
    public func urlRequest<Value>(for endpoint: Endpoint<Value>) async throws -> URLRequest {
        try await RequestPipeline(client: client, call: endpoint.call).prepare().draft.request.urlRequest
    }
}

extension Endpoint {
    /// Steps 1 to 7 for an endpoint on `client`, observed like any request: the decoded response,
    /// the raw one, and the request that received it (its URL is the last one, after redirects).
    func performed(on client: ApiClient, mapsErrors: Bool = true) async throws -> (response: Response<Value>, raw: Response<Data>, request: TransportRequest) {
        try await RequestPipeline(client: client, call: call).perform(mapsErrors: mapsErrors) { raw, request in
            (raw.withBody(try decode(raw, of: request, clientDecoder: client.jsonDecoder)), raw, request)
        }
    }
}
