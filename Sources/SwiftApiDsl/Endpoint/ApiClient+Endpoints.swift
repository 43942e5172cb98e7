import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiClient {
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
        let (response, request) = try await endpoint.request(on: self).execute()
        return response.withBody(try endpoint.decode(response, of: request, clientDecoder: jsonDecoder))
    }

    /// Sends `endpoint` and streams its body to `destination`, as
    /// ``RequestBuilder/download(destination:)`` does; the endpoint's decoding is not used.
    @discardableResult
    public func download<Value>(_ endpoint: Endpoint<Value>, destination: URL) async throws -> HTTPURLResponse {
        try await endpoint.request(on: self).download(destination: destination)
    }

    /// The `URLRequest` this client would send for `endpoint` (base URL, modifiers and
    /// authentication applied), without sending it: an API description is testable offline.
    ///
    /// ```swift
    /// let request = try await client.urlRequest(for: Todos.todo(id: 7))
    /// #expect(request.url?.absoluteString == "https://example.com/api/todos/7")
    /// ```
    public func urlRequest<Value>(for endpoint: Endpoint<Value>) async throws -> URLRequest {
        try await endpoint.request(on: self).urlRequest()
    }
}
