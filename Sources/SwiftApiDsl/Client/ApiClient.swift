import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An immutable API client: a base URL, a transport, JSON coders, and the modifiers,
/// authentication and validators applied to every request it starts.
///
/// Every configuring call returns a new client and leaves the receiver unchanged, so one base
/// client can be specialised in several directions, from any task:
/// ```swift
/// let client = ApiClient(baseUrl: URL(string: "https://my-domain.com/api/v1")!)
///     .userAgent("my-app/5.0.1")
///     .authentication { .bearer(try await tokenStore.token()) }
///     .httpStatusCodeRange()
///
/// let profile: Profile = try await client.get("user/profile").perform()
/// ```
public struct ApiClient: RequestModifiable, ResponseValidatable {
    /// The URL that request paths are resolved against; its path and query are kept.
    /// Change it with ``baseUrl(_:)``.
    public private(set) var baseUrl: URL
    /// Encodes `body:` values and JSON bodies, unless a request brings its own encoder.
    public let jsonEncoder: JSONEncoder
    /// Decodes responses, unless `perform(jsonDecoder:)` is given another decoder.
    public let jsonDecoder: JSONDecoder
    /// The engine that sends requests.
    public private(set) var transport: any HTTPTransport

    /// Modifiers applied to every request, in order, before authentication.
    var modifiers: [RequestModifier] = []
    /// The authentication modifier, applied after the client's modifiers unless a request bypasses it.
    var authenticationModifier: RequestModifier?
    /// Validators applied to every response, before the request's own.
    var validators: [ResponseValidator] = []

    /// Creates a client that sends its requests with URLSession.
    ///
    /// The library sends through its own session made from `urlSession.configuration`
    /// (headers, cookies, protocol classes, proxies and limits are kept), because it needs a
    /// session delegate to follow redirects correctly and stream bodies; the delegate of
    /// `urlSession`, if any, is not called. One such session is kept per `urlSession`.
    public init(
        urlSession: URLSession = .shared,
        baseUrl: URL,
        jsonEncoder: JSONEncoder = JSONEncoder(),
        jsonDecoder: JSONDecoder = JSONDecoder()
    ) {
        self.init(transport: URLSessionTransport.shared(for: urlSession), baseUrl: baseUrl,
                  jsonEncoder: jsonEncoder, jsonDecoder: jsonDecoder)
    }

    /// Creates a client that sends its requests through `transport`, for example another HTTP engine.
    public init(
        transport: any HTTPTransport,
        baseUrl: URL,
        jsonEncoder: JSONEncoder = JSONEncoder(),
        jsonDecoder: JSONDecoder = JSONDecoder()
    ) {
        self.transport = transport
        self.baseUrl = baseUrl
        self.jsonEncoder = jsonEncoder
        self.jsonDecoder = jsonDecoder
    }

    /// Returns a copy with `modifier` appended to the client's modifiers.
    public func modifier(_ modifier: RequestModifier) -> ApiClient {
        with { $0.modifiers.append(modifier) }
    }

    /// Returns a copy with `validator` appended to the client's validators.
    public func validator(_ validator: ResponseValidator) -> ApiClient {
        with { $0.validators.append(replacingSameId: validator) }
    }

    /// Returns a copy with another base URL, keeping modifiers, authentication and validators:
    /// for an API that lives on several servers.
    ///
    /// ```swift
    /// let uploads = client.baseUrl(URL(string: "https://upload.my-domain.com/v1")!)
    /// ```
    /// Authentication follows the base URL: it is added to requests whose origin is the new one.
    public func baseUrl(_ baseUrl: URL) -> ApiClient {
        with { $0.baseUrl = baseUrl }
    }

    /// Returns a copy that sends through `transport`, keeping everything else.
    public func transport(_ transport: any HTTPTransport) -> ApiClient {
        with { $0.transport = transport }
    }

    /// A copy with one change.
    func with(_ change: (inout ApiClient) -> Void) -> ApiClient {
        var copy = self
        change(&copy)
        return copy
    }
}
