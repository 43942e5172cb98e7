import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request while modifiers shape it: the `URLRequest` plus what a `URLRequest` cannot hold.
struct RequestDraft: Sendable {
    /// The request itself. In-memory bodies live in its `httpBody`.
    var urlRequest: URLRequest
    /// A body streamed from disk. Setting one clears `httpBody`; a modifier that sets
    /// `httpBody` afterwards replaces it (the last body set wins).
    var body: RequestBody? {
        didSet { if body != nil { urlRequest.httpBody = nil } }
    }
    /// How redirects of this request are followed.
    var redirectPolicy: RedirectPolicy = .follow
    /// When a failed attempt is sent again; by default never.
    var retryPolicy: RetryPolicy = .never
    /// The largest body `perform()` reads into memory; `nil` for no limit.
    var maxResponseSize: Int?
    /// Told how far the request body has been sent.
    var uploadProgress: ProgressHandler?
    /// Told how far the response body has been received.
    var downloadProgress: ProgressHandler?
    /// The encoder for JSON bodies: the request's, else the client's.
    let jsonEncoder: JSONEncoder

    init(urlRequest: URLRequest, jsonEncoder: JSONEncoder) {
        self.urlRequest = urlRequest
        self.jsonEncoder = jsonEncoder
    }

    /// The request as the transport receives it.
    var transportRequest: TransportRequest { TransportRequest(urlRequest: urlRequest, body: body) }
}
