import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything an ``ApiClient`` holds. The client keeps it in one immutable ``Box``, so that
/// copying a client (which every chained call on a request does) costs one retain.
struct ClientSettings: Sendable {
    /// The base URL (the client's `baseUrl`); setting it takes it apart again for ``resolutionBase``.
    var storedBaseUrl: URL {
        didSet { resolutionBase = URLResolution.Base(storedBaseUrl) }
    }
    /// The base URL taken apart once, for the paths of requests.
    private(set) var resolutionBase: URLResolution.Base
    var storedJsonEncoder: JSONEncoder
    var storedJsonDecoder: any ResponseDecoder
    var storedTransport: any HTTPTransport
    var validatorsEnabled: (@Sendable () -> Bool)?
    var modifiers: [RequestModifier] = []
    var authentication: ClientAuthentication?
    var validators: [ResponseValidator] = []
    var observers: [@Sendable (RequestEvent) -> Void] = []
    var middlewares: [Middleware] = []
    var errorMapping: (@Sendable (RequestError) -> any Error)?

    init(transport: any HTTPTransport, baseUrl: URL, jsonEncoder: JSONEncoder, jsonDecoder: any ResponseDecoder) {
        self.storedTransport = transport
        self.storedBaseUrl = baseUrl
        self.resolutionBase = URLResolution.Base(baseUrl)
        self.storedJsonEncoder = jsonEncoder
        self.storedJsonDecoder = jsonDecoder
    }

    /// The settings of one client value, never changed once made.
    final class Box: Sendable {
        let settings: ClientSettings
        init(_ settings: ClientSettings) { self.settings = settings }
    }
}
