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
    // The type itself declares only what starts a request (see ApiClient+Requests.swift); its
    // settings and configuring calls live in ApiClient+Configuration.swift, in an extension
    // that editors rank below the type's own members, so `client.` lists the verbs first.

    /// The base URL; read it as `baseUrl`.
    var storedBaseUrl: URL {
        didSet { resolutionBase = URLResolution.Base(storedBaseUrl) }
    }
    /// The base URL taken apart once, for the paths of requests.
    private(set) var resolutionBase: URLResolution.Base
    /// The client's encoder; read it as `jsonEncoder`.
    var storedJsonEncoder: JSONEncoder
    /// The client's decoder; read it as `jsonDecoder`.
    var storedJsonDecoder: JSONDecoder
    /// The engine; read it as `transport`.
    var storedTransport: any HTTPTransport
    /// Whether validators run, asked at each request; `nil` for always (see ``validators(enabledWhen:)``).
    var validatorsEnabled: (@Sendable () -> Bool)?

    /// Modifiers applied to every request, in order, before authentication.
    var modifiers: [RequestModifier] = []
    /// The authentication, applied after the client's modifiers unless a request bypasses it.
    var authentication: ClientAuthentication?
    /// Validators applied to every response, before the request's own.
    var validators: [ResponseValidator] = []
    /// Told of every request's life, in order; see ``observer(_:)``.
    var observers: [any RequestObserver] = []
    /// Around every request on the wire, the first outermost; see ``Middleware``.
    var middlewares: [Middleware] = []
    /// Turns every failure into the app's own error; see ``mapError(_:)``.
    var errorMapping: (@Sendable (RequestError) -> any Error)?

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
        self.storedTransport = transport
        self.storedBaseUrl = baseUrl
        self.resolutionBase = URLResolution.Base(baseUrl)
        self.storedJsonEncoder = jsonEncoder
        self.storedJsonDecoder = jsonDecoder
    }

    /// A copy with one change.
    func with(_ change: (inout ApiClient) -> Void) -> ApiClient {
        var copy = self
        change(&copy)
        return copy
    }
}
