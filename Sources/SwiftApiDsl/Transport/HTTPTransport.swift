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
/// A transport performs **one exchange**: it must not follow redirects (the pipeline does that,
/// identically for every engine, see ``RedirectPolicy``) and it must honour
/// `urlRequest.timeoutInterval` as an idle timeout, sub-second values included, throwing
/// `URLError(.timedOut)`. It throws any error of its own; the pipeline wraps it in
/// ``RequestError/transport(_:_:)``, except a ``RequestError``, which reaches the caller unchanged.
/// When the calling task is cancelled it must stop promptly.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the whole response body in memory.
    func data(for request: TransportRequest) async throws -> (Data, HTTPURLResponse)

    /// Sends `request` and streams the response body into `file`, which the transport creates
    /// or truncates. The caller owns `file` and removes it on failure.
    func download(for request: TransportRequest, to file: URL) async throws -> HTTPURLResponse
}

/// A request ready to be sent: the `URLRequest` (holding any in-memory body in `httpBody`)
/// and, for bodies that are not in memory, their source.
public struct TransportRequest: Sendable {
    /// The request after every modifier ran. Its `httpBody` is `nil` when ``body`` is set.
    public var urlRequest: URLRequest
    /// A body the library streams from disk (a file upload, a multipart form with files).
    public var body: RequestBody?

    /// Creates a transport request.
    public init(urlRequest: URLRequest, body: RequestBody? = nil) {
        self.urlRequest = urlRequest
        self.body = body
    }
}

/// A request body that the library carries to the transport itself, because a `URLRequest`
/// cannot hold it safely on Linux (an `httpBodyStream` there is always sent chunked).
public enum RequestBody: Sendable, Equatable {
    /// The contents of a file, streamed from disk with a `Content-Length`.
    case file(URL)
    /// A multipart form; fields that are files are streamed from disk.
    case multipart(MultipartFormData)
}

/// A transport that says whether the client's validators run, read at each request.
/// `SwiftApiDslMock`'s transport adopts it: validators are off on a mock unless it is told otherwise.
package protocol ValidatorsSwitch: HTTPTransport {
    var appliesValidators: Bool { get }
}
