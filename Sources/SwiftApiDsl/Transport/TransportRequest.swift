import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request ready to be sent: its URL, method, header fields, body and idle timeout, in the
/// library's own form, and its `URLRequest` made when someone asks for it.
///
/// Built-in modifiers and the AsyncHTTPClient transport work on the fields directly: on Linux a
/// `URLRequest` costs about a microsecond per header field set through swift-corelibs-foundation,
/// which a request that never meets URLSession need not pay. ``urlRequest`` is made from the
/// fields on demand (for a closure modifier, URLSession, an observer or an error), and setting
/// it takes its fields back, keeping whatever else it holds (cache policy, cookies…) for the
/// next time it is made.
///
/// ```swift
/// func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
///     guard let url = request.url else { throw URLError(.badURL) }
///     for field in request.headerFields { print(field.name, field.value) }
///     …
/// }
/// ```
public struct TransportRequest: Sendable {
    /// The absolute URL; never `nil` once the request reaches a transport.
    public var url: URL?
    /// The method, e.g. `GET`.
    public var method: HttpMethod = .get
    /// The header fields, in the order they were first set.
    public var headerFields = HeaderFields()
    /// An in-memory body; `nil` when ``body`` is set.
    public var httpBody: Data?
    /// A body the library streams from disk (a file upload, a multipart form with files).
    /// It can be read again from the start, for a redirect that keeps it or another attempt.
    public var body: RequestBody?
    /// The idle timeout in seconds, as `URLRequest.timeoutInterval` (60 unless set).
    public var timeoutInterval: TimeInterval = 60
    /// The Foundation form last taken back, for what the fields above do not hold.
    private var foundationExtras: URLRequest?
    /// The call's name for logs and metrics, such as an OpenAPI operation ID, set with
    /// `.name(_:)`; the same on every request of the call on the wire. `nil` unless set.
    public var name: String?
    /// What the request trusts and presents over TLS (``TLSSettings``), set with `.tls(_:)`; a
    /// transport enforces it for this request's host, or refuses it before sending anything.
    public var tls: TLSSettings?

    /// A request from its parts.
    ///
    /// ```swift
    /// TransportRequest(url: url, method: .post, headerFields: ["Content-Type": "text/plain"], httpBody: Data("hi".utf8))
    /// ```
    public init(url: URL, method: HttpMethod = .get, headerFields: HeaderFields = [:], httpBody: Data? = nil,
                body: RequestBody? = nil, timeoutInterval: TimeInterval = 60) {
        self.url = url
        self.method = method
        self.headerFields = headerFields
        self.httpBody = httpBody
        self.body = body
        self.timeoutInterval = timeoutInterval
    }

    /// Creates a transport request from a `URLRequest` (any in-memory body in its `httpBody`)
    /// and a streamed body, which replaces the `httpBody` when given.
    public init(urlRequest: URLRequest, body: RequestBody? = nil) {
        self.urlRequest = urlRequest
        if let body { setBody(body) }
    }

    // The one-body rule, kept here for every way a body is set: the last body set wins.

    /// Sets `data` as the body, in place of any other (a streamed ``body`` included).
    public mutating func setBody(_ data: Data) {
        body = nil
        httpBody = data
    }

    /// Sets a streamed body, in place of any other (an ``httpBody`` included).
    public mutating func setBody(_ streamed: RequestBody) {
        httpBody = nil
        body = streamed
    }

    /// The Foundation form of the request, made from the fields each time it is read. Its
    /// `httpBody` is `nil` when ``body`` is set; setting one with an `httpBody` replaces ``body``.
    public var urlRequest: URLRequest {
        get {
            var request: URLRequest
            if let extras = foundationExtras {
                // corelibs crashes changing a `URLRequest` that has no URL (it unwraps the URL
                // to copy the request): one that a closure modifier left without a URL is
                // returned as it is. It can only end in an error (`FinishedRequestCheck`).
                guard extras.url != nil else { return extras }
                request = extras
                if let url { request.url = url }
                request.httpMethod = method.rawValue
                request.allHTTPHeaderFields = headerFields.merged
                request.httpBody = httpBody
                request.timeoutInterval = timeoutInterval
            } else {
                // Only the fields that differ from a new request's are set: each set goes
                // through corelibs' normalisation.
                request = URLRequest(url: url ?? Self.placeholderURL, timeoutInterval: timeoutInterval)
                if method != .get { request.httpMethod = method.rawValue }
                if !headerFields.fields.isEmpty { request.allHTTPHeaderFields = headerFields.merged }
                if let httpBody { request.httpBody = httpBody }
            }
            // Last, for the same reason: nothing may change the request once its URL is gone.
            if url == nil { request.url = nil }
            return request
        }
        set {
            url = newValue.url
            method = HttpMethod(newValue.httpMethod ?? HttpMethod.get.rawValue)
            headerFields.replaceAll(with: newValue.allHTTPHeaderFields ?? [:])
            if let data = newValue.httpBody { setBody(data) } else { httpBody = nil }
            timeoutInterval = newValue.timeoutInterval
            foundationExtras = newValue
        }
    }

    /// A stand-in for a missing URL while a `URLRequest` is made; removed again at once.
    private static let placeholderURL = URL(fileURLWithPath: "/")
}
