import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request being described: started by an ``ApiClient`` (`client.get("users/7")`), shaped
/// by modifiers and validators, then sent with `perform()` or `download(destination:)`.
///
/// It is a value: each call returns a new builder, and nothing is sent until you perform it,
/// so a builder can be kept and performed several times. It holds the same description of a
/// call as an ``Endpoint``, bound to its client; ``endpoint`` gives it back without the client.
///
/// **Paths.** `path` is appended to the base URL's path: base `https://h/api/v1` (with or
/// without a trailing slash) and `users/7` or `/users/7` give `https://h/api/v1/users/7`.
/// A trailing slash is kept (`books/` → `…/books/`). The path is literal text: every
/// character other than letters, digits, `/` and `-._~!$'()*,;:@` is percent-encoded,
/// including `?`, `#`, `%`, `+`, `&`, `=`, spaces and non-ASCII text; add queries with
/// ``RequestModifiable/queryItem(name:_:)``. The base URL's query items are kept.
/// A path with a control character (such as a newline), or a base URL without a scheme and
/// host, fails the request as ``RequestError/modify(_:_:)``.
///
/// **Absolute URLs.** A request started from a URL (`client.request(url: nextLink)`) goes to
/// that URL as is, through the same modifiers and validators. The client's authentication is
/// added only when the URL's origin (scheme, host and port) is the base URL's, so a link to
/// another server never receives your credentials; opt in with ``CallDescribing/authenticatingAnyOrigin()``.
public struct RequestBuilder: CallDescribing {
    // The type itself declares only its state. `perform` is declared in a plain extension below
    // (`download` in Download/Download.swift); what describes the request and the calls that
    // change it live in constrained extensions, which editors rank after those.

    /// The client; read it as `client`.
    let storedClient: ApiClient
    /// What the call is, as a raw endpoint: stored as one, so that a chained call edits it in
    /// place through ``endpoint``.
    var raw: Endpoint<Data>

    init(client: ApiClient, call: CallDescription) {
        self.storedClient = client
        raw = Endpoint(call: call)
    }

    /// What the call is: the same description an endpoint holds.
    var call: CallDescription { raw.call }

    /// The way the request is performed.
    var pipeline: RequestPipeline { RequestPipeline(client: storedClient, call: call) }

    /// A call started by `client`; `body` (which need not be `Sendable`) is encoded now, with
    /// `jsonEncoder`, else the client's encoder.
    init(client: ApiClient, method: HttpMethod, path: String?, url: URL? = nil, bypassAuth: Bool, body: (any Encodable)?, jsonEncoder: JSONEncoder?) {
        let encoded = body.map { JSONBody(encodingNow: $0, with: jsonEncoder ?? client.jsonEncoder) }
        self.init(client: client, call: CallDescription(method: method, path: path, url: url, body: encoded,
                                                        jsonEncoder: jsonEncoder, bypassAuth: bypassAuth))
    }
}

// Declared in constrained extensions rather than on the type, so that editors rank `perform`
// and `download` above the request's properties and modifiers after `client.get("…").`.

extension RequestModifiable where Self == RequestBuilder {
    /// The client that started the request.
    public var client: ApiClient { self.storedClient }
    /// The request without its client: an endpoint with the same method, path or URL,
    /// `bypassAuth`, body, modifiers, validators and middlewares, that gives the raw body. Read
    /// what the request describes there (`request.endpoint.method`, `.path`, `.url`,
    /// `.bypassAuth`), or keep it: `client.perform(request.endpoint)` sends the same call.
    /// Writing it replaces the call and keeps the client.
    public var endpoint: Endpoint<Data> {
        get { self.raw }
        set { self.raw = newValue }
    }
    /// The encoder for this request's JSON bodies: the one given, else the client's.
    public var jsonEncoder: JSONEncoder { self.call.jsonEncoder ?? self.storedClient.jsonEncoder }
}

extension RequestBuilder {
    /// Sends the request and returns the raw body with its `HTTPURLResponse`.
    ///
    /// ```swift
    /// try await client.post("user/profile", body: newProfile).perform()
    /// let response: Response<Data> = try await client.get("user/avatar").perform()
    /// ```
    @discardableResult
    public func perform() async throws -> Response<Data> {
        try await pipeline.perform { response, _ in response }
    }

    /// Sends the request and decodes the body with `jsonDecoder`, else the client's decoder: JSON
    /// by default, or any ``ResponseDecoder``.
    ///
    /// ```swift
    /// let profile: Profile = try await client.get("user/profile").perform()
    /// ```
    /// `T == Data` returns the raw body. ``EmptyResponse`` and an optional (as `nil`) decode
    /// from an empty body. A body that does not decode fails as
    /// ``FatalError/decoding(expectedType:request:response:error:)``, keeping the response.
    public func perform<T: Decodable>(jsonDecoder: (any ResponseDecoder)? = nil) async throws -> T {
        try await (perform(jsonDecoder: jsonDecoder) as Response<T>).body
    }

    /// Sends the request and returns the decoded body with its `HTTPURLResponse`.
    ///
    /// ```swift
    /// let response: Response<Profile> = try await client.get("user/profile").perform()
    /// ```
    public func perform<T: Decodable>(jsonDecoder: (any ResponseDecoder)? = nil) async throws -> Response<T> {
        try await pipeline.perform { response, request in
            response.withBody(try Self.decode(T.self, from: response, of: request, with: jsonDecoder ?? client.jsonDecoder))
        }
    }

    /// Sends the request and decodes the body as `type`, with `jsonDecoder`, else the client's
    /// decoder: the form that needs no type annotation.
    ///
    /// ```swift
    /// let profile = try await client.get("user/profile").perform(as: Profile.self)
    /// ```
    /// Decoding is that of `perform(jsonDecoder:)`: `Data` is the raw body, an
    /// ``EmptyResponse`` or an optional accepts an empty body, and a body that does not decode fails as
    /// ``FatalError/decoding(expectedType:request:response:error:)``.
    public func perform<T: Decodable>(as type: T.Type, jsonDecoder: (any ResponseDecoder)? = nil) async throws -> T {
        try await perform(jsonDecoder: jsonDecoder)
    }

    /// Sends the request and returns the body decoded as `T` with its `HTTPURLResponse`.
    ///
    /// ```swift
    /// let response = try await client.get("user/profile").perform(as: Response<Profile>.self)
    /// print(response.statusCode, response.body.name)
    /// ```
    public func perform<T: Decodable>(as type: Response<T>.Type, jsonDecoder: (any ResponseDecoder)? = nil) async throws -> Response<T> {
        try await perform(jsonDecoder: jsonDecoder)
    }

    // The two declarations below are never called: they turn "cannot convert value of type
    // 'Response<Data>'…", what asking for a type that is not Decodable gives otherwise, into an
    // error that says what is wrong. Unavailable declarations are not offered by completion.

    /// Unavailable: the type asked for is not `Decodable`.
    @available(*, unavailable, message: "perform() decodes the body into a Decodable type: make the type conform to Decodable, or ask for Response<Data> or Data for the raw body")
    public func perform<T>(jsonDecoder: (any ResponseDecoder)? = nil) async throws -> T {
        fatalError("unavailable: never called")
    }

    /// Unavailable: the type asked for is not `Decodable`.
    @available(*, unavailable, message: "perform(as:) decodes the body into a Decodable type: make the type conform to Decodable, or ask for Response<Data>.self or Data.self for the raw body")
    public func perform<T>(as type: T.Type, jsonDecoder: (any ResponseDecoder)? = nil) async throws -> T {
        fatalError("unavailable: never called")
    }

    // MARK: Inspecting

    /// The finished request, as it would be sent: base URL and path (or the absolute URL),
    /// the client's modifiers, authentication and the request's modifiers applied. Nothing is sent.
    ///
    /// ```swift
    /// let urlRequest = try await client.get("users/7").bearer("abc").urlRequest()
    /// ```
    /// A body streamed from disk (a multipart form, a file) is not part of a `URLRequest` and is
    /// left out. Errors are those of sending: ``RequestError/modify(_:_:)``.
    public func urlRequest() async throws -> URLRequest {
        try await pipeline.prepare().draft.request.urlRequest
    }

    /// The finished request as a `curl` command line to paste into a terminal or a bug report,
    /// prepared as ``urlRequest()`` prepares it (nothing is sent), with secrets redacted: the
    /// values of headers and query items named like credentials, and URL passwords (see
    /// ``TransportRequest/curlDescription``). A file or multipart body is included as curl reads it from disk.
    ///
    /// ```swift
    /// print(try await client.post("todos", body: todo).curlDescription())
    /// // curl -X POST 'https://example.com/api/todos' -H 'Authorization: <redacted>' …
    /// ```
    public func curlDescription() async throws -> String {
        try await pipeline.prepare().draft.request.curlDescription
    }

    /// Step 7: the body as `T`.
    /// `T` is known statically: a model's own conformance, even one isolated to the main actor, is
    /// used as it is. The casts below meet only `Data` (a value cast) and `EmptyDecodable`, which
    /// only the library's own types adopt, never isolated, so they answer the same on any thread.
    static func decode<T: Decodable>(_ type: T.Type, from response: Response<Data>, of request: TransportRequest, with decoder: any ResponseDecoder) throws -> T {
        if let data = response.body as? T { return data }
        if response.body.isEmpty, let empty = (T.self as? any EmptyDecodable.Type)?.emptyValue as? T { return empty }
        do {
            return try decoder.decode(T.self, from: response.body)
        } catch {
            throw RequestError.fatal(.decoding(expectedType: String(describing: T.self), request: request.urlRequest, response: response, error: error))
        }
    }
}
