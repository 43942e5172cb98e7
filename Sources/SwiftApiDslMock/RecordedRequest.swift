import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// A request as an `ApiClientMock` received it: after every modifier (authentication
/// included) ran, with its body in an inspectable form.
///
/// ```swift
/// let post = try #require(mock.recordedRequests(method: .post, path: "todos").first)
/// #expect(post.header(.authorization) == "Bearer abc")
/// #expect(try post.decodedBody(as: NewTodo.self) == NewTodo(title: "Buy milk"))
/// ```
public struct RecordedRequest: Sendable, CustomStringConvertible {
    /// The request as the transport received it. An in-memory body is in its `httpBody`.
    public let urlRequest: URLRequest
    /// A body that is not in memory: a multipart form (always) or an uploaded file.
    public let body: RequestBody?
    /// The request's URL, query included.
    public let url: URL
    /// The values captured by the `:name` segments of the stub that answered; empty if none did.
    ///
    /// ```swift
    /// mock.stub(.get, "todos/:id") { request in
    ///     .response(request.urlRequest, body: todos[request.pathParameters["id"] ?? ""])
    /// }
    /// ```
    public let pathParameters: [String: String]
    /// The path's percent-decoded segments after the base URL's path.
    let pathSegments: [String]
    /// The mocked client's decoder, the default for ``decodedBody(as:jsonDecoder:)``.
    private let jsonDecoder: JSONDecoder

    init(_ request: TransportRequest, url: URL, pathSegments: [String], pathParameters: [String: String], jsonDecoder: JSONDecoder) {
        self.urlRequest = request.urlRequest
        self.body = request.body
        self.url = url
        self.pathSegments = pathSegments
        self.pathParameters = pathParameters
        self.jsonDecoder = jsonDecoder
    }

    /// The HTTP method, e.g. `.post`.
    public var method: HttpMethod { HttpMethod(urlRequest.httpMethod ?? HttpMethod.get.rawValue) }

    /// The path relative to the base URL, percent-decoded, without query: `todos/7` for
    /// `https://h/api/todos/7?full=1` with base `https://h/api`. A URL outside the base URL
    /// (after a redirect to another host) gives its whole path without the leading slash.
    public var path: String { pathSegments.joined(separator: "/") }

    /// The query items, in order; empty when there is no query.
    public var queryItems: [URLQueryItem] {
        URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
    }

    /// Every header field, as set by the modifiers.
    public var headers: [String: String] { urlRequest.allHTTPHeaderFields ?? [:] }

    /// The value of one header field, looked up ignoring case.
    public func header(_ field: HeaderField) -> String? {
        urlRequest.value(forHTTPHeaderField: field.rawValue)
    }

    /// The in-memory body: a `body:`, a JSON body, a form-URL-encoded one, or the bytes a
    /// streamed body (`RequestBody.stream`) gave, read whole by the mock. `nil` for none and
    /// for the bodies in ``body``.
    public var httpBody: Data? { urlRequest.httpBody }

    /// The in-memory body as UTF-8 text, if it is some.
    public var bodyText: String? { httpBody.flatMap { String(data: $0, encoding: .utf8) } }

    /// The multipart form sent, with its parts, if the body is one.
    public var multipartFormData: MultipartFormData? {
        if case .multipart(let form) = body { form } else { nil }
    }

    /// The file uploaded as the body, if the body is one.
    public var uploadedFile: URL? {
        if case .file(let url) = body { url } else { nil }
    }

    /// The in-memory body decoded from JSON with `jsonDecoder`, else the mocked client's decoder
    /// (so the keys match what its encoder wrote, snake_case included when it is the decoder's
    /// strategy too). Throws the decoder's error, also when there is no in-memory body.
    public func decodedBody<T: Decodable>(as type: T.Type = T.self, jsonDecoder: JSONDecoder? = nil) throws -> T {
        try (jsonDecoder ?? self.jsonDecoder).decode(type, from: httpBody ?? Data())
    }

    /// `POST https://h/api/todos`.
    public var description: String { "\(method) \(Redaction.url(url))" }
}

extension RecordedRequest: CustomReflectable {
    /// Method, redacted URL and headers, and the path parameters: what `dump` shows.
    public var customMirror: Mirror {
        Mirror(self, children: Redaction.mirrorChildren(of: urlRequest) + [("pathParameters", pathParameters)])
    }
}
