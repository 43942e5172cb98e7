import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestBuilder {
    /// Sends the request and returns the raw body with its `HTTPURLResponse`.
    ///
    /// ```swift
    /// try await client.post("user/profile", body: newProfile).perform()
    /// let response: Response<Data> = try await client.get("user/avatar").perform()
    /// ```
    @discardableResult
    public func perform() async throws -> Response<Data> {
        try await pipeline.observed { try await pipeline.execute(trace: $0).0 }
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
        let response: Response<T> = try await perform(jsonDecoder: jsonDecoder)
        return response.body
    }

    /// Sends the request and returns the decoded body with its `HTTPURLResponse`.
    ///
    /// ```swift
    /// let response: Response<Profile> = try await client.get("user/profile").perform()
    /// ```
    public func perform<T: Decodable>(jsonDecoder: (any ResponseDecoder)? = nil) async throws -> Response<T> {
        try await pipeline.observed { trace in
            let (response, request) = try await pipeline.execute(trace: trace)
            return response.withBody(try Self.decode(T.self, from: response, of: request, with: jsonDecoder ?? client.jsonDecoder))
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
