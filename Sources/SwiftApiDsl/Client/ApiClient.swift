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
public struct ApiClient: RequestModifiable, ResponseValidatable, RequestStarting {
    // The verbs, `request` and the endpoint calls come from `RequestStarting`, shared with the
    // mock; the settings and configuring calls live in the extensions below.

    // Everything the client holds sits in one immutable box: a request copies the client at each
    // chained call (`.header(…)`, `.validator(…)`), and one reference costs one retain where a
    // dozen fields cost a dozen. A configuring call makes a new box (`ClientSettings`, below).
    private var box: ClientSettings.Box

    /// Everything the client holds, read where it is used (`client.settings.modifiers`); setting
    /// it makes a new box and leaves other copies as they are.
    var settings: ClientSettings {
        get { box.settings }
        set { box = ClientSettings.Box(newValue) }
    }

    /// Creates a client that sends its requests with URLSession.
    ///
    /// The library sends through its own session made from `urlSession.configuration`
    /// (headers, cookies, protocol classes, proxies and limits are kept), because it needs a
    /// session delegate to follow redirects correctly and stream bodies; the delegate of
    /// `urlSession`, if any, is not called. Clients made from the same `urlSession` share that
    /// session while any of them lives, and it is released, connections included, with the last
    /// of them (``URLSessionTransport/shared(for:)``): keep a client rather than making one per
    /// request. `urlSession` is not retained; only the session made for `URLSession.shared` is
    /// kept for the life of the process.
    public init(
        urlSession: URLSession = .shared,
        baseUrl: URL,
        jsonEncoder: JSONEncoder = JSONEncoder(),
        jsonDecoder: any ResponseDecoder = JSONDecoder()
    ) {
        self.init(transport: URLSessionTransport.shared(for: urlSession), baseUrl: baseUrl,
                  jsonEncoder: jsonEncoder, jsonDecoder: jsonDecoder)
    }

    /// Creates a client that sends its requests through `transport`, for example another HTTP engine.
    public init(
        transport: any HTTPTransport,
        baseUrl: URL,
        jsonEncoder: JSONEncoder = JSONEncoder(),
        jsonDecoder: any ResponseDecoder = JSONDecoder()
    ) {
        box = ClientSettings.Box(ClientSettings(transport: transport, baseUrl: baseUrl, jsonEncoder: jsonEncoder, jsonDecoder: jsonDecoder))
    }

    /// This client: what ``RequestStarting`` starts requests through.
    public var client: ApiClient { self }

    /// A copy with one change; the settings are boxed once for all the change makes.
    func with(_ change: (inout ClientSettings) -> Void) -> ApiClient {
        var copy = self
        change(&copy.settings)
        return copy
    }
}

/// Everything an ``ApiClient`` holds. The client keeps it in one immutable ``Box``, so that
/// copying a client (which every chained call on a request does) costs one retain.
struct ClientSettings: Sendable {
    /// The base URL; setting it takes it apart again for ``resolutionBase``.
    var baseUrl: URL {
        didSet { resolutionBase = URLResolution.Base(baseUrl) }
    }
    /// The base URL taken apart once, for the paths of requests.
    private(set) var resolutionBase: URLResolution.Base
    var jsonEncoder: JSONEncoder
    var jsonDecoder: any ResponseDecoder
    var transport: any HTTPTransport
    /// Whether validators run, asked at each request; `nil` for always (see `validators(enabledWhen:)`).
    var validatorsEnabled: (@Sendable () -> Bool)?
    var modifiers: [RequestModifier] = []
    var authentication: ClientAuthentication?
    var validators: [ResponseValidator] = []
    var observers: [@Sendable (RequestEvent) -> Void] = []
    var middlewares: [Middleware] = []
    var errorMapping: (@Sendable (RequestError) -> any Error)?

    init(transport: any HTTPTransport, baseUrl: URL, jsonEncoder: JSONEncoder, jsonDecoder: any ResponseDecoder) {
        self.transport = transport
        self.baseUrl = baseUrl
        self.resolutionBase = URLResolution.Base(baseUrl)
        self.jsonEncoder = jsonEncoder
        self.jsonDecoder = jsonDecoder
    }

    /// The settings of one client value, never changed once made.
    final class Box: Sendable {
        let settings: ClientSettings
        init(_ settings: ClientSettings) { self.settings = settings }
    }
}

// The client's settings and the calls that return a reconfigured copy. They are declared in a
// protocol extension constrained to `ApiClient` rather than on the type: editors rank a type's
// own members first, and these should come after the verbs that start a request (`client.`
// then lists `get`, `post`… before `modifier`, `validator`, `authentication`, `transport`).

extension RequestModifiable where Self == ApiClient {
    /// The URL that request paths are resolved against; its path and query are kept.
    public var baseUrl: URL { self.settings.baseUrl }
    /// Encodes `body:` values and JSON bodies, unless a request brings its own encoder.
    public var jsonEncoder: JSONEncoder { self.settings.jsonEncoder }
    /// Decodes response bodies and error bodies (a `JSONDecoder` unless the client was made with
    /// another ``ResponseDecoder``), unless `perform(jsonDecoder:)` is given another decoder.
    public var jsonDecoder: any ResponseDecoder { self.settings.jsonDecoder }
    /// The engine that sends requests.
    public var transport: any HTTPTransport { self.settings.transport }

    /// Returns a copy with `modifier` appended to the client's modifiers.
    public func modifier(_ modifier: RequestModifier) -> ApiClient {
        self.with { $0.modifiers.append(modifier) }
    }

    /// Returns a copy with another base URL, keeping modifiers, authentication and validators:
    /// for an API that lives on several servers.
    ///
    /// ```swift
    /// let uploads = client.baseUrl(URL(string: "https://upload.my-domain.com/v1")!)
    /// ```
    /// Authentication follows the base URL: it is added to requests whose origin is the new one.
    public func baseUrl(_ baseUrl: URL) -> ApiClient {
        self.with { $0.baseUrl = baseUrl }
    }

    /// Returns a copy that sends through `transport`, keeping everything else.
    public func transport(_ transport: any HTTPTransport) -> ApiClient {
        self.with { $0.transport = transport }
    }
}

extension ResponseValidatable where Self == ApiClient {
    /// Returns a copy with `validator` appended to the client's validators.
    public func validator(_ validator: ResponseValidator) -> ApiClient {
        self.with { $0.validators.append(replacingSameId: validator) }
    }

    /// Returns a copy whose validators (the client's and every call's) run only while `isOn`
    /// returns `true`, asked at each request. `SwiftApiDslMock` uses it to keep validators off on
    /// a mock unless told otherwise (`mock.appliesValidators`).
    ///
    /// ```swift
    /// let client = base.validators(enabledWhen: { Settings.strictValidation })
    /// ```
    public func validators(enabledWhen isOn: @escaping @Sendable () -> Bool) -> ApiClient {
        self.with { $0.validatorsEnabled = isOn }
    }
}
