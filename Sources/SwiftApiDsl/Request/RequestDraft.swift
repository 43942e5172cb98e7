import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A call while its modifiers shape it: the request in the library's own form, and the settings
/// of the call that are not part of the request (how redirects are followed, when it is retried,
/// its size limit, who is told of its progress).
///
/// A modifier made with ``RequestModifier/init(editingDraft:)`` gets it, as the built-in
/// `retryPolicy`, `redirectPolicy`, `maxResponseSize`, progress and JSON-body modifiers do:
/// ```swift
/// extension RequestModifier {
///     /// Retries an idempotent read up to three times; sends anything else once.
///     static var retryingReads: RequestModifier {
///         RequestModifier(editingDraft: { draft in
///             draft.retryPolicy = draft.request.method == .get ? RetryPolicy(maxAttempts: 3) : .never
///         })
///     }
/// }
/// ```
public struct RequestDraft: Sendable {
    /// The request itself; its bodies follow the one-body rule of ``TransportRequest``.
    public var request: TransportRequest
    /// How redirects of this request are followed; `.follow` unless a modifier says otherwise.
    public var redirectPolicy: RedirectPolicy = .follow
    /// When a failed attempt is sent again; by default never.
    public var retryPolicy: RetryPolicy = .never
    /// The largest body `perform()` reads into memory; `nil` for no limit.
    public var maxResponseSize: Int?
    /// Told how far the request body has been sent.
    public var uploadProgress: ProgressHandler?
    /// Told how far the response body has been received.
    public var downloadProgress: ProgressHandler?
    /// The encoder for JSON bodies: the request's, else the client's.
    public let jsonEncoder: JSONEncoder
}
