import Foundation

/// How a request went, measured from its start to its end: what ``RequestEvent/Kind/finished(_:)``
/// carries. Its text forms are redacted, as its request's and error's are.
public struct RequestMetrics: Sendable {
    /// The last request sent (the final hop's, when redirected), or the request as far as it was
    /// built when a modifier failed.
    public internal(set) var request: TransportRequest?
    /// From the start of the performance (before the modifiers) to its end (after decoding, or
    /// after moving a download into place), in seconds.
    public internal(set) var totalDuration: TimeInterval = 0
    /// From the start to the arrival of the first response head (of the first hop, when
    /// redirected), in seconds; `nil` when no response arrived.
    public internal(set) var timeToFirstByte: TimeInterval?
    /// The request body bytes of every hop: an in-memory body's size, a streamed body's length.
    public internal(set) var bytesSent: Int64 = 0
    /// The response body bytes of every hop (a download's included).
    public internal(set) var bytesReceived: Int64 = 0
    /// The redirects followed.
    public internal(set) var redirectCount = 0
    /// The last response's status code; `nil` when no response arrived.
    public internal(set) var statusCode: Int?
    /// Why the request failed; `nil` when it succeeded.
    public internal(set) var error: RequestError?
    /// Where the response came from: ``ResponseSource/stored`` when a cache answered (no request
    /// went on the wire, so no response head event either), ``ResponseSource/revalidated`` when
    /// it answered after a `304`, else ``ResponseSource/network``.
    public internal(set) var source = ResponseSource.network
}
