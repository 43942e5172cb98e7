import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A step around each exchange: it receives the request as it goes on the wire and `next`,
/// which sends it on (through the later middlewares, then the transport) and returns the
/// response head with its body still to read.
///
/// A middleware may change the request (sign it, add a trace id), call `next` any number of
/// times or not at all (a circuit breaker, a cache hit), and return another response (a cached
/// body, a corrected header). It runs for **every request on the wire** of a call: each
/// redirect hop, each retry and the replay after a refreshed credential go through it, after
/// the modifiers and authentication shaped the request. What it throws fails the call as
/// ``RequestError/transport(_:_:)`` (a ``RequestError`` it throws reaches the caller unchanged).
///
/// ```swift
/// /// Signs each request's method, path and body with a shared secret.
/// func signing(secret: String) -> Middleware {
///     Middleware("signing") { request, next in
///         var signed = request
///         let payload = Data("\(request.method.rawValue) \(request.url?.path ?? "")\n".utf8) + (try request.bodyData())
///         signed.headerFields.set(hmac(payload, key: secret), for: "X-Signature")
///         return try await next(signed)
///     }
/// }
///
/// let client = ApiClient(baseUrl: url).middleware(signing(secret: key))
/// ```
/// ``TransportRequest/bodyData()`` and ``TransportRequest/makeBodyReader(chunkSize:)`` give the
/// body as it is sent, a file or a multipart form included; hash a large one chunk by chunk.
/// Client middlewares run first (outermost), in the order they were added, then the call's.
/// A middleware runs in the task that performs the call, off the main actor: in an app compiled
/// with main-actor isolation by default, declare what it calls `nonisolated` (`nonisolated func hmac…`).
///
/// **Which seam?** A *modifier* shapes the request once, before anything is sent (headers, query,
/// body). A *validator* judges the final response. A *middleware* wraps the exchange itself:
/// it sees both sides of every request on the wire, and can retry, replace or refuse. A
/// *transport* is the engine that carries bytes (URLSession, AsyncHTTPClient, a mock).
/// `Docs/Architecture.md` walks a request through them all.
public struct Middleware: Sendable {
    /// Sends a request on, through the rest of the chain, and returns the response head with
    /// its body still to read.
    public typealias Next = @Sendable (TransportRequest) async throws -> TransportResponse

    /// A name for logs and for telling middlewares apart.
    public let name: String
    private let intercept: @Sendable (TransportRequest, Next, Call) async throws -> TransportResponse

    /// Creates a middleware from a closure that gets the request and `next`.
    public init(_ name: String, _ intercept: @escaping @Sendable (_ request: TransportRequest, _ next: Next) async throws -> TransportResponse) {
        self.name = name
        self.intercept = { request, next, _ in try await intercept(request, next) }
    }

    /// Creates a middleware from a closure that also gets the ``Call`` its requests belong to:
    /// the transport it sends through, its id for the client's observers, and whether its body
    /// is taken as it arrives.
    ///
    /// ```swift
    /// Middleware("cache", seeingCall: { request, next, call in
    ///     let cookies = request.url.flatMap { call.transport.cookieField(for: $0) }
    ///     …
    /// })
    /// ```
    public init(_ name: String, seeingCall intercept: @escaping @Sendable (
        _ request: TransportRequest, _ next: Next, _ call: Call) async throws -> TransportResponse) {
        self.name = name
        self.intercept = intercept
    }

    /// What a middleware may know of the call a request belongs to, beyond the request itself:
    /// the same for every request of the call on the wire (each redirect hop, retry and replay).
    public struct Call: Sendable {
        /// The transport the call sends through (the client's, a mock's), to ask what it adds to a
        /// request out of a middleware's sight: ``HTTPTransport/cookieField(for:)``, the cookies
        /// URLSession sends from its storage, which a cache keys on.
        public let transport: any HTTPTransport
        /// The call's ``RequestEvent/requestID`` when the client has observers, else `nil`: a
        /// middleware that works with an observer (a tracer injecting the call's span) finds the call by it.
        public let requestID: Int?
        /// Whether the caller takes the body as it arrives (a download, a stream) rather than
        /// in memory: a caching middleware then collects it only when its announced length is small.
        public let takesBodyAsItArrives: Bool
    }

    /// This middleware around `next`, in `call`.
    func wrapping(_ next: @escaping Next, call: Call) -> Next {
        { request in try await intercept(request, next, call) }
    }
}

extension RequestModifiable where Self == ApiClient {
    /// Returns a copy that sends every request on the wire through `middleware`, after the
    /// middlewares added before it; see ``Middleware``.
    ///
    /// ```swift
    /// let client = ApiClient(baseUrl: url).middleware(.init("log") { request, next in
    ///     let response = try await next(request)
    ///     print(request.method, request.url?.path ?? "", response.statusCode)
    ///     return response
    /// })
    /// ```
    public func middleware(_ middleware: Middleware) -> ApiClient {
        self.with { $0.middlewares.append(middleware) }
    }

    /// The client's middlewares, outermost first.
    public var middlewares: [Middleware] { self.settings.middlewares }

    /// Returns a copy whose middlewares are `middlewares`, outermost first, in place of the
    /// client's: to put one before those already added, or to leave one out.
    ///
    /// ```swift
    /// let first = client.middlewares([tracing] + client.middlewares)
    /// ```
    public func middlewares(_ middlewares: [Middleware]) -> ApiClient {
        self.with { $0.middlewares = middlewares }
    }
}
