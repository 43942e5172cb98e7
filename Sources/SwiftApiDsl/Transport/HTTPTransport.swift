import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The engine that carries one finished request to a server and brings back its answer.
///
/// The request pipeline (modify, authenticate, send, validate, decode) talks to the network
/// only through this protocol, so another HTTP engine or a mock plugs in without touching it.
/// ``URLSessionTransport`` is the default; pass another one to ``ApiClient/init(transport:baseUrl:jsonEncoder:jsonDecoder:)``.
///
/// A transport performs **one exchange** and returns as soon as the response head has
/// arrived, with the body still to come as a ``ResponseBody``. The pipeline decides what
/// happens to the body (buffer it, stream it to a file, hand it to the caller), and it
/// enforces the idle timeout (`urlRequest.timeoutInterval`), task cancellation and size
/// limits itself, the same way for every engine. A transport's duties are short:
/// - send the request once; never follow a redirect (the pipeline does, see ``RedirectPolicy``);
/// - register with ``ExchangeControl/onAbort(_:)`` how to stop the exchange at once, before
///   anything slow happens; the pipeline calls it on timeout, cancellation, or when the caller
///   drops the body;
/// - report the bytes of the request body it sends with ``ExchangeControl/didSend(_:)``
///   (they count as activity for the idle timeout);
/// - deliver the body with back-pressure where the engine allows it.
///
/// It throws any error of its own; the pipeline wraps it in ``RequestError/transport(_:_:)``,
/// except a ``RequestError``, which reaches the caller unchanged, and except after an abort,
/// when the caller sees the reason of the abort (`URLError(.timedOut)`, `CancellationError`).
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response head with its body still to read.
    func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse

    /// The `Cookie` field this engine adds from storage of its own to a request for `url`, which
    /// no middleware sees: URLSession's cookie storage. `nil` by default. A caching middleware
    /// keys on it (``Middleware/Call/transport``) so that two cookie sessions never
    /// share private answers; a transport that **wraps another** must return the wrapped one's.
    ///
    /// ```swift
    /// struct Logging: HTTPTransport {
    ///     let base: any HTTPTransport
    ///     func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
    ///         print(request.method, request.url?.path ?? "")
    ///         return try await base.send(request, control: control)
    ///     }
    ///     func cookieField(for url: URL) -> String? { base.cookieField(for: url) }
    /// }
    /// ```
    func cookieField(for url: URL) -> String?
}

extension HTTPTransport {
    /// No cookies of the engine's own: the default.
    public func cookieField(for url: URL) -> String? { nil }
}

/// A request body that the library carries to the transport itself, because a `URLRequest`
/// cannot hold it safely on Linux (an `httpBodyStream` there is always sent chunked).
public enum RequestBody: Sendable, Equatable {
    /// The contents of a file, streamed from disk with a `Content-Length`.
    case file(URL)
    /// A multipart form; fields that are files are streamed from disk.
    case multipart(MultipartFormData)
    /// Chunks produced while they are sent (an upload generated on the fly, a body handed over
    /// by another library), with their length when it is known; see ``StreamedBody``.
    case stream(StreamedBody)
}
