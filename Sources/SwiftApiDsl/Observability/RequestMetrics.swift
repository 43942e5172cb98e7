import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a request went, measured from its start to its end: see ``RequestObserver/requestFinished(_:)``.
///
/// `description` is one redacted line, e.g.
/// `#4 GET https://api.example.com/v1/users → 200 in 0.084 s (first byte 0.081 s), 0 bytes sent, 512 received`.
public struct RequestMetrics: Sendable, CustomStringConvertible, CustomReflectable {
    /// Shared by every event of one performance of a request.
    public let requestID: Int
    /// The last request sent (the final hop's, when redirected), or the request as far as it was
    /// built when a modifier failed.
    public let request: URLRequest?
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

    public var description: String {
        var text = "#\(requestID) \(request.map(Redaction.line) ?? "<no request>") → "
        text += error.map { "failed in \(Seconds.format(totalDuration)): \($0.description)" }
            ?? "\(statusCode.map(String.init) ?? "no status") in \(Seconds.format(totalDuration))"
        if let timeToFirstByte { text += " (first byte \(Seconds.format(timeToFirstByte)))" }
        if cacheOutcome != .network { text += " (cache: \(cacheOutcome.rawValue))" }
        return text + ", \(bytesSent) bytes sent, \(bytesReceived) received"
    }

    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = [("requestID", requestID)]
        if let request { children += Redaction.mirrorChildren(of: request) }
        children += [("totalDuration", totalDuration), ("timeToFirstByte", timeToFirstByte as Any), ("bytesSent", bytesSent),
                     ("bytesReceived", bytesReceived), ("redirectCount", redirectCount), ("statusCode", statusCode as Any),
                     ("cacheOutcome", cacheOutcome)]
        if let error { children.append(("error", error.description)) }
        return Mirror(self, children: children)
    }
}
