import Foundation

/// How a request went, measured from its start to its end: what ``RequestEvent/Kind/finished(_:)``
/// carries. Its text forms are redacted, as its request's and error's are.
public struct RequestMetrics: Sendable {
    /// The last request sent (the final hop's, when redirected), or the request as far as it was
    /// built when a modifier failed.
    public let request: TransportRequest?
    /// From the start of the performance (before the modifiers) to its end (after decoding, or
    /// after moving a download into place), in seconds.
    public let totalDuration: TimeInterval
    /// From the start to the arrival of the first response head (of the first hop, when
    /// redirected), in seconds; `nil` when no response arrived.
    public let timeToFirstByte: TimeInterval?
    /// The request body bytes of every hop: an in-memory body's size, a streamed body's length.
    public let bytesSent: Int64
    /// The response body bytes of every hop (a download's included).
    public let bytesReceived: Int64
    /// The redirects followed.
    public let redirectCount: Int
    /// The last response's status code; `nil` when no response arrived.
    public let statusCode: Int?
    /// Why the request failed; `nil` when it succeeded.
    public let error: RequestError?
    /// Whether the client's ``HTTPCache`` answered (``HTTPCache/Outcome/hit``: no request went
    /// on the wire, so no response head event either), answered after a `304`, or the response
    /// came from the network (as with no cache).
    public let cacheOutcome: HTTPCache.Outcome
}
