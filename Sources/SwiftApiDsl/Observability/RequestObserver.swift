import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sees the life of every request a client sends: prepared, redirected, response head received,
/// retried, finished with its metrics. Attach one with ``ApiClient/observer(_:)``.
///
/// ```swift
/// struct PrintObserver: RequestObserver {
///     func requestFinished(_ metrics: RequestMetrics) { print(metrics) }
/// }
/// let client = ApiClient(baseUrl: url).observer(PrintObserver())
/// // #1 GET https://api.example.com/v1/users → 200 in 0.084 s (first byte 0.081 s), 0 bytes sent, 512 received
/// ```
/// Every method has an empty default, so implement only the events you need. They are called
/// in the task that performs the request, in the order the events happen, so keep them quick:
/// hand slow work (a file, the network) to a task or a queue of your own. The events of one
/// performance of a request share a ``ObservedRequest/requestID``.
///
/// Every text an event makes (`description`, `dump`, its mirror, ``ObservedRequest/curl``) is
/// redacted as error descriptions are (see ``HeaderField/isRedacted``); the `URLRequest` and
/// header values an event carries are the real ones.
public protocol RequestObserver: Sendable {
    /// The request is built: modifiers and authentication ran, nothing is sent yet. A request
    /// whose modifiers fail has no such event, only ``requestFinished(_:)`` with the error.
    func requestPrepared(_ request: ObservedRequest)
    /// A redirect is about to be followed (one event per hop).
    func requestRedirected(_ redirect: ObservedRedirect)
    /// A response head (status and headers) arrived, one per hop when redirected.
    func responseHeadReceived(_ head: ObservedResponseHead)
    /// The request failed and is about to be tried again.
    func requestRetrying(_ retry: ObservedRetry)
    /// The request ended, successfully or not (decoding and saving a download included); sent
    /// exactly once for each performance of a request.
    func requestFinished(_ metrics: RequestMetrics)
}

extension RequestObserver {
    public func requestPrepared(_ request: ObservedRequest) {}
    public func requestRedirected(_ redirect: ObservedRedirect) {}
    public func responseHeadReceived(_ head: ObservedResponseHead) {}
    public func requestRetrying(_ retry: ObservedRetry) {}
    public func requestFinished(_ metrics: RequestMetrics) {}
}

// A configuring call: in the extension constrained to the client, so completion lists it after
// the verbs (see ApiClient+Configuration.swift).
extension RequestModifiable where Self == ApiClient {
    /// Returns a copy that reports the life of each of its requests to `observer`, after the
    /// observers added before it.
    ///
    /// ```swift
    /// let client = ApiClient(baseUrl: url).observer(Metrics()).observer(Logging())
    /// ```
    public func observer(_ observer: any RequestObserver) -> ApiClient {
        self.with { $0.observers.append(observer) }
    }
}
