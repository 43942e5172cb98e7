import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One thing that happened to a request, as the client's observers hear it: see
/// ``ApiClient/observer(_:)``.
///
/// Its `description` (so `print` and string interpolation) is one redacted line; its values
/// (the ``TransportRequest``s, header fields and errors) are what was really sent or received,
/// and their own text forms are redacted too.
public struct RequestEvent: Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable {
        /// Modifiers and authentication ran, nothing is sent yet. A request whose modifiers fail
        /// has no such event, only ``finished(_:)`` with the error.
        case prepared(TransportRequest)
        /// A response head (status and header fields) to `request` arrived, one per hop when redirected.
        case responseHead(statusCode: Int, headerFields: HeaderFields, request: TransportRequest)
        /// A redirect with `statusCode` is about to be followed from `from` to `to`, whose method and
        /// body may differ (see ``RedirectPolicy``).
        case redirected(from: TransportRequest, to: TransportRequest, statusCode: Int)
        /// An attempt failed with `error` and attempt number `attempt` (`2` for the first retry)
        /// starts after `delay` seconds.
        case retrying(attempt: Int, error: RequestError, delay: TimeInterval)
        /// The request ended, successfully or not (decoding and saving a download included):
        /// exactly once for each performance of a request.
        case finished(RequestMetrics)
    }

    /// Shared by every event of one performance of a request, and by every request of it on the
    /// wire (``Middleware/Call/requestID``); distinct within the process.
    public let requestID: Int
    /// What happened.
    public let kind: Kind

    /// One redacted line, e.g. `#4 GET https://api.example.com/v1/users` (prepared),
    /// `#4 200 for GET …` (a head), `#4 302: GET … → GET …`, `#4 attempt 2 in 0.500 s after: …`,
    /// `#4 GET … → 200 in 0.084 s (first byte 0.081 s), 0 bytes sent, 512 received` (finished).
    public var description: String {
        switch kind {
        case .prepared(let request):
            return "#\(requestID) \(request)"
        case .responseHead(let statusCode, _, let request):
            return "#\(requestID) \(statusCode) for \(request)"
        case .redirected(let from, let to, let statusCode):
            return "#\(requestID) \(statusCode): \(from) → \(to)"
        case .retrying(let attempt, let error, let delay):
            return "#\(requestID) attempt \(attempt) in \(Self.seconds(delay)) after: \(error.description)"
        case .finished(let metrics):
            var text = "#\(requestID) \(metrics.request.map(String.init(describing:)) ?? "<no request>") → "
            text += metrics.error.map { "failed in \(Self.seconds(metrics.totalDuration)): \($0.description)" }
                ?? "\(metrics.statusCode.map(String.init) ?? "no status") in \(Self.seconds(metrics.totalDuration))"
            if let firstByte = metrics.timeToFirstByte { text += " (first byte \(Self.seconds(firstByte)))" }
            if metrics.source != .network { text += " (\(metrics.source.rawValue))" }
            return text + ", \(metrics.bytesSent) bytes sent, \(metrics.bytesReceived) received"
        }
    }

    /// `0.084 s`
    private static func seconds(_ interval: TimeInterval) -> String { String(format: "%.3f s", interval) }
}

// A configuring call: in the extension constrained to the client, so completion lists it after
// the verbs (see ApiClient.swift).
extension RequestModifiable where Self == ApiClient {
    /// Returns a copy that tells `observe` of every ``RequestEvent`` of each of its requests,
    /// after the observers added before it.
    ///
    /// ```swift
    /// let client = ApiClient(baseUrl: url).observer { event in
    ///     if case .finished = event.kind { print(event) }
    /// }
    /// // #1 GET https://api.example.com/v1/users → 200 in 0.084 s (first byte 0.081 s), 0 bytes sent, 512 received
    /// ```
    /// `observe` is called in the task that performs the request, in the order things happen, so
    /// keep it quick: hand slow work (a file, the network) to a task or a queue of your own.
    public func observer(_ observe: @escaping @Sendable (RequestEvent) -> Void) -> ApiClient {
        self.with { $0.observers.append(observe) }
    }
}
