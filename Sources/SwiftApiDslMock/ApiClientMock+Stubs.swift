import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

// Stubs answer requests by method and path. They are tried in the order they were added, and
// the first whose method and path pattern match answers; see `PathPattern` for the syntax and
// `BasePath` for how a URL becomes a path relative to the base URL. Declared in a constrained
// extension so that `mock.` lists the verbs first (see ApiClientMock.swift).

extension ApiClientMock {
    /// Answers a request that a stub matched; `request.pathParameters` holds the captured segments.
    public typealias StubResponder = @Sendable (RecordedRequest) async throws -> Result<Response<Data>, RequestError>
}

extension RequestStarting where Self == ApiClientMock {
    /// Answers requests with `method` (any method if `nil`) whose path matches `path` by calling `respond`.
    ///
    /// `path` is matched against the request's path relative to the base URL, query ignored:
    /// a literal segment matches itself, `:name` captures one segment into
    /// ``RecordedRequest/pathParameters``, `*` matches one segment, and a final `**` matches
    /// the rest. A leading slash is ignored; a trailing slash counts.
    /// ```swift
    /// mock.stub(.get, "todos/:id") { request in
    ///     guard let todo = todos[request.pathParameters["id"] ?? ""] else {
    ///         return .response(request.urlRequest, statusCode: 404)
    ///     }
    ///     return .response(request.urlRequest, body: todo, jsonEncoder: encoder)
    /// }
    /// ```
    public func stub(_ method: HttpMethod?, _ path: String, respond: @escaping ApiClientMock.StubResponder) {
        let stub = MockStub(method: method, pattern: PathPattern(path), respond: respond)
        self.transport.update { $0.stubs.append(stub) }
    }

    /// Answers requests with `method` (any if `nil`) and a path matching `path` with `body`,
    /// encoded once, now, with the client's `jsonEncoder` (a `Data` body is sent as is).
    ///
    /// ```swift
    /// try mock.stub(.get, "todos", body: [todo])
    /// try mock.stub(.post, "todos", body: ApiProblem(message: "Title missing"), statusCode: 422)
    /// ```
    /// Throws the encoder's error if `body` does not encode.
    public func stub(_ method: HttpMethod?, _ path: String, body: some Encodable, statusCode: Int = 200, headers: [String: String] = [:]) throws {
        let (data, headers) = try MockBody.encode(body, headers: headers, jsonEncoder: self.transport.jsonEncoder)
        self.stub(method, path) { .response($0.urlRequest, data: data, statusCode: statusCode, headers: headers) }
    }

    /// Answers requests with `method` (any if `nil`) and a path matching `path` with an empty body.
    ///
    /// ```swift
    /// mock.stub(.delete, "todos/:id", statusCode: 204)
    /// ```
    public func stub(_ method: HttpMethod?, _ path: String, statusCode: Int = 200, headers: [String: String] = [:]) {
        self.stub(method, path) { .response($0.urlRequest, data: Data(), statusCode: statusCode, headers: headers) }
    }

    /// Removes every stub.
    public func removeAllStubs() {
        self.transport.update { $0.stubs.removeAll() }
    }
}
