import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request while modifiers shape it: the request in the library's own form plus how it
/// travels. Built-in modifiers edit ``request`` directly; a closure modifier edits
/// ``urlRequest``, made for it and taken back after it (see ``TransportRequest``).
struct RequestDraft: Sendable {
    /// The request itself. Setting a streamed body clears the in-memory one; a modifier that
    /// sets `httpBody` afterwards replaces the streamed one (the last body set wins).
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

    /// The Foundation form, for closure modifiers and errors.
    var urlRequest: URLRequest {
        get { request.urlRequest }
        set {
            let streamed = request.body
            request.urlRequest = newValue
            // A body set on the `URLRequest` replaces a streamed one.
            request.body = newValue.httpBody == nil ? streamed : nil
        }
    }

    /// Sets `data` as the body, in place of any other.
    mutating func setBody(_ data: Data) {
        request.body = nil
        request.httpBody = data
    }

    /// Sets a streamed body, in place of any other.
    mutating func setBody(_ body: RequestBody) {
        request.httpBody = nil
        request.body = body
    }
}
