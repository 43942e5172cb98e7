import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A typed description of one call: what to send and what it returns, declared once and
/// performed by any ``ApiClient``.
///
/// ```swift
/// enum Todos {
///     static func all() -> Endpoint<[Todo]> { Endpoint(.get, "todos") }
///     static func todo(id: Int) -> Endpoint<Todo> { Endpoint(.get, "todos/\(id)") }
///     static func create(_ todo: NewTodo) -> Endpoint<Todo> { Endpoint(.post, "todos", body: todo) }
///     static func delete(id: Int) -> Endpoint<EmptyResponse> { Endpoint(.delete, "todos/\(id)") }
/// }
///
/// let todo = try await client.perform(Todos.todo(id: 7))
/// ```
/// An endpoint is a value: chain the same modifiers and validators as on a request
/// (`.bearer(token)`, `.httpStatusCodeRange(200...404)`, `.decodingErrorBody(ApiProblem.self)`).
/// It is the same description of a call as `client.get(…)` makes, performed by the same pipeline:
/// the client's modifiers, then its authentication (unless `bypassAuth`), then `query`, `headers`
/// and the endpoint's modifiers; the client's validators, then the endpoint's.
///
/// **Decoding.** `Value` is decoded with the endpoint's `jsonDecoder`, else the client's: JSON by
/// default, or any ``ResponseDecoder`` (XML, property lists…).
/// `Data` gives the raw body; ``EmptyResponse`` and an optional (as `nil`) accept an empty
/// body. Any other decoding is a closure: `Endpoint(.get, "logo", decode: { $0.body })`.
public struct Endpoint<Value>: CallDescribing, Sendable {
    /// What the call is: the same description a client's request holds.
    var call: CallDescription
    /// How the validated response becomes the value.
    let decoding: Decoding

    /// The HTTP method.
    public var method: HttpMethod { call.method }
    /// The path relative to the client's base URL, when the endpoint is not an absolute ``url``.
    public var path: String? { call.path }
    /// The absolute URL the endpoint goes to, when it has one instead of a ``path``.
    public var url: URL? { call.url }
    /// Query items appended to the URL, before the endpoint's modifiers run.
    public var query: [URLQueryItem] { call.query }
    /// Whether the client's authentication is skipped.
    public var bypassAuth: Bool { call.bypassAuth }
    /// The encoder for the body: this one, else the client's.
    public var jsonEncoder: JSONEncoder? { call.jsonEncoder }

    /// Creates an endpoint that decodes its own way; `decode` gets the validated raw response.
    /// An error it throws fails the call as ``FatalError/decoding(expectedType:request:response:error:)``.
    ///
    /// ```swift
    /// static func avatar(id: Int) -> Endpoint<String> {
    ///     Endpoint(.get, "users/\(id)/avatar", decode: { String(decoding: $0.body, as: UTF8.self) })
    /// }
    /// ```
    public init(
        _ method: HttpMethod = .get, _ path: String? = nil, query: [URLQueryItem] = [], headers: [HeaderField: String] = [:],
        body: (any Encodable & Sendable)? = nil, bypassAuth: Bool = false, jsonEncoder: JSONEncoder? = nil,
        decode: @escaping @Sendable (Response<Data>) throws -> Value
    ) {
        self.init(method, path: path, url: nil, query: query, headers: headers, body: body, bypassAuth: bypassAuth,
                  jsonEncoder: jsonEncoder, decoding: .custom(decode))
    }

    init(
        _ method: HttpMethod, path: String?, url: URL?, query: [URLQueryItem], headers: [HeaderField: String],
        body: (any Encodable & Sendable)?, bypassAuth: Bool, jsonEncoder: JSONEncoder?,
        decoding: Decoding
    ) {
        call = CallDescription(method: method, path: path, url: url, query: query, body: body.map(JSONBody.init),
                               jsonEncoder: jsonEncoder, bypassAuth: bypassAuth)
        self.decoding = decoding
        // Sorted so that the request is the same on every run. Set by the built-in modifier, which
        // refuses a name or value HTTP cannot carry (a URLRequest on Linux drops it silently).
        for (field, value) in headers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            call.modifiers.append(.header(field, value))
        }
    }

    /// This endpoint's call, giving the raw body; writing it replaces the call and keeps this
    /// endpoint's decoding.
    public var endpoint: Endpoint<Data> {
        get { Endpoint<Data>(call: call) }
        set { call = newValue.call }
    }

    /// The same call, its value made by `transform` from the validated raw response and this
    /// endpoint's own decoding of it (`decoded()` runs that decoding, with the client's decoder
    /// unless the endpoint has its own): to keep a header with the value, or skip decoding a
    /// body seen before. What `transform` throws fails the call as
    /// ``FatalError/decoding(expectedType:request:response:error:)`` (a ``RequestError`` as it is).
    ///
    /// ```swift
    /// let tagged = Todos.all().decoding { response, decoded in (try decoded(), response.headerFields["ETag"]) }
    /// let (todos, etag) = try await client.perform(tagged)
    /// ```
    public func decoding<T>(_ transform: @escaping @Sendable (_ response: Response<Data>, _ decoded: () throws -> Value) throws -> T) -> Endpoint<T> {
        Endpoint<T>(call: call, decoding: .json(nil, { [self] raw, request, decoder in
            do {
                return try transform(raw) { try decode(raw, of: request, clientDecoder: decoder) }
            } catch let error as RequestError {
                throw error
            } catch {
                throw RequestError.fatal(.decoding(expectedType: String(describing: T.self), request: request.urlRequest, response: raw, error: error))
            }
        }))
    }

    /// An endpoint of `call` that decodes its way.
    private init(call: CallDescription, decoding: Decoding) {
        self.call = call
        self.decoding = decoding
    }

    /// The same endpoint sent to the absolute `url` without its ``query`` (the URL carries its
    /// own), keeping method, body, modifiers, validators and decoding: how pages follow links.
    public func with(url: URL) -> Endpoint {
        var copy = self
        copy.call.url = url
        copy.call.path = nil
        copy.call.query = []
        return copy
    }

    /// Where the endpoint goes from `baseUrl`, at once: its ``path`` resolved against `baseUrl`
    /// (or its absolute ``url``) with its ``query`` appended, percent-encoded as a request is.
    /// Modifiers are not run, a chained `.queryItem(…)` and the client's included; for the
    /// request as sent, see ``RequestStarting/urlRequest(for:)``.
    ///
    /// ```swift
    /// let url = try Endpoint<[Book]>(.get, "books", query: [URLQueryItem(name: "q", value: "a b")])
    ///     .url(relativeTo: URL(string: "https://example.com/api")!)   // https://example.com/api/books?q=a%20b
    /// ```
    /// Throws ``ApiClientError`` when the path cannot form a URL with `baseUrl`, or
    /// `baseUrl` (for a path) or ``url`` has no scheme and host.
    public func url(relativeTo baseUrl: URL) throws -> URL {
        try URLResolution.appending(query, to: URLResolution.Base(baseUrl).url(for: call))
    }

    /// How an endpoint turns its validated response into its value.
    enum Decoding: Sendable {
        /// JSON with this decoder, else the client's (the closure's argument). The closure is made
        /// where `Value: Decodable` is known statically: decoding needs no conformance cast, which
        /// would fail off the main actor for a model whose conformance is isolated to it.
        case json((any ResponseDecoder)?, @Sendable (Response<Data>, TransportRequest, any ResponseDecoder) throws -> Value)
        /// The caller's closure.
        case custom(@Sendable (Response<Data>) throws -> Value)
    }

    /// Step 7 for an endpoint: the value, or ``FatalError/decoding(expectedType:request:response:error:)``.
    func decode(_ response: Response<Data>, of request: TransportRequest, clientDecoder: any ResponseDecoder) throws -> Value {
        let failure = { (error: any Error) in
            RequestError.fatal(.decoding(expectedType: String(describing: Value.self), request: request.urlRequest, response: response, error: error))
        }
        switch decoding {
        case .custom(let decode):
            do { return try decode(response) } catch { throw failure(error) }
        case .json(let decoder, let decode):
            return try decode(response, request, decoder ?? clientDecoder)
        }
    }

    /// This endpoint's call bound to `client`: one pipeline for endpoints and a client's requests.
    func request(on client: ApiClient) -> RequestBuilder {
        RequestBuilder(client: client, call: call)
    }
}

extension Endpoint where Value: Decodable {
    /// Step 7 for a `Decodable` value, with the generic requirement known where the endpoint is
    /// made rather than found by a cast when it is performed.
    static var decodeJSON: @Sendable (Response<Data>, TransportRequest, any ResponseDecoder) throws -> Value {
        JSONBodyDecoding<Value>().decode
    }

    /// The endpoint of `call`, decoding with the client's decoder: a request without its client.
    init(call: CallDescription) {
        self.call = call
        decoding = .json(nil, Self.decodeJSON)
    }

    /// Creates an endpoint to `path` (relative to the client's base URL) whose body decodes into
    /// `Value` with `jsonDecoder`, else the client's decoder (any ``ResponseDecoder``).
    ///
    /// ```swift
    /// static func search(_ text: String) -> Endpoint<[Book]> {
    ///     Endpoint(.get, "books", query: [URLQueryItem(name: "search", value: text)])
    /// }
    /// ```
    /// A `body` is encoded as JSON with `jsonEncoder`, else the client's encoder, and sets
    /// `Content-Type: application/json`. `Value == Data` gives the raw body.
    public init(
        _ method: HttpMethod = .get, _ path: String? = nil, query: [URLQueryItem] = [], headers: [HeaderField: String] = [:],
        body: (any Encodable & Sendable)? = nil, bypassAuth: Bool = false,
        jsonEncoder: JSONEncoder? = nil, jsonDecoder: (any ResponseDecoder)? = nil
    ) {
        self.init(method, path: path, url: nil, query: query, headers: headers, body: body, bypassAuth: bypassAuth,
                  jsonEncoder: jsonEncoder, decoding: .json(jsonDecoder, Self.decodeJSON))
    }

    /// Creates an endpoint to an absolute `url` whose body decodes as JSON into `Value`.
    /// The client's authentication is added only when `url` has the base URL's origin.
    public init(
        _ method: HttpMethod = .get, url: URL, query: [URLQueryItem] = [], headers: [HeaderField: String] = [:],
        body: (any Encodable & Sendable)? = nil, bypassAuth: Bool = false,
        jsonEncoder: JSONEncoder? = nil, jsonDecoder: (any ResponseDecoder)? = nil
    ) {
        self.init(method, path: nil, url: url, query: query, headers: headers, body: body, bypassAuth: bypassAuth,
                  jsonEncoder: jsonEncoder, decoding: .json(jsonDecoder, Self.decodeJSON))
    }
}

/// Decodes a body into `Value` as ``RequestBuilder``'s requests do: the one place an endpoint's
/// decoding meets `Value: Decodable`, so that performing it needs no conformance cast.
struct JSONBodyDecoding<Value: Decodable>: Sendable {
    func decode(_ response: Response<Data>, of request: TransportRequest, with decoder: any ResponseDecoder) throws -> Value {
        try RequestBuilder.decode(Value.self, from: response, of: request, with: decoder)
    }
}
