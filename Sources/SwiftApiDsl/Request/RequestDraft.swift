import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request while modifiers shape it: the request in the library's own form plus how it
/// travels. Built-in modifiers edit ``request``'s fields; a closure modifier edits its
/// `urlRequest`, made for it and taken back after it (see ``TransportRequest``).
struct RequestDraft: Sendable {
    /// The request itself; its bodies follow the one-body rule of ``TransportRequest``.
    var request: TransportRequest
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

    init(request: TransportRequest, jsonEncoder: JSONEncoder) {
        self.request = request
        self.jsonEncoder = jsonEncoder
    }
}
