import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One performance of a request as its observers see it: the pipeline reports what happens at
/// a few marked points, the trace measures and forwards it to each observer in order.
///
/// Its counts are kept under a lock: a middleware may send requests on from several tasks at
/// once (a hedged request, say). There is no trace at all (the pipeline holds `nil`) when the
/// client has no observer.
final class RequestTrace: Sendable {
    private static let lastRequestID = Locked(0)

    private struct Counts {
        var firstHead: TimeInterval?
        var request: TransportRequest?
        var bytesSent: Int64 = 0
        var bytesReceived: Int64 = 0
        var redirectCount = 0
        var statusCode: Int?
        var cacheOutcome = HTTPCache.Outcome.network
    }

    private let observers: [@Sendable (RequestEvent) -> Void]
    /// The id the observers' events carry, and every request of the call on the wire.
    let requestID: Int
    private let start = RequestTrace.now
    private let counts = Locked(Counts())

    /// A trace for a client's observers, or `nil` when it has none. A factory rather than a
    /// failable initialiser: the trace's stored properties (a lock, the start time read from the
    /// clock) would be made before a failable initialiser could return `nil`, on every call
    /// of a client without observers.
    static func starting(for observers: [@Sendable (RequestEvent) -> Void]) -> RequestTrace? {
        observers.isEmpty ? nil : RequestTrace(observers: observers)
    }

    private init(observers: [@Sendable (RequestEvent) -> Void]) {
        self.observers = observers
        requestID = Self.lastRequestID.withLock { id in
            id += 1
            return id
        }
    }

    /// A monotonic clock in seconds (`ContinuousClock` needs macOS 13).
    private static var now: TimeInterval { ProcessInfo.processInfo.systemUptime }

    /// Modifiers and authentication ran.
    func prepared(_ request: TransportRequest) {
        counts.withLock { $0.request = request }
        tell(.prepared(request))
    }

    /// `request` goes to the transport: its body counts as sent.
    func sending(_ request: TransportRequest) {
        let size = request.body.map { (try? $0.contentLength()) ?? 0 } ?? Int64(request.httpBody?.count ?? 0)
        counts.withLock { counts in
            counts.request = request
            counts.bytesSent += size
        }
    }

    /// The response head to `request` arrived (the body is still to come).
    func headReceived(_ head: ResponseHead, for request: TransportRequest) {
        let elapsed = Self.now - start
        counts.withLock { counts in
            counts.firstHead = counts.firstHead ?? elapsed
            counts.statusCode = head.statusCode
        }
        tell(.responseHead(statusCode: head.statusCode, headerFields: head.headerFields, request: request))
    }

    /// The middleware chain returned `response`, the one the call goes on with: its status
    /// counts when no response came from the wire (a cache hit), and it carries the cache's outcome.
    func answered(_ response: TransportResponse) {
        let outcome = response.cacheOutcome
        counts.withLock { counts in
            // A hit answers the last hop without the network: its status is the call's (after a
            // redirect the wire's last status was the 3xx).
            counts.statusCode = outcome == .hit ? response.statusCode : counts.statusCode ?? response.statusCode
            counts.cacheOutcome = outcome
        }
    }

    /// The final response's body was read: `body`, or for a download the contents of `file`
    /// (`body` then holds only what validators see).
    func bodyReceived(_ body: Data, file: URL?) {
        if let file {
            bodyReceived(count: Int64((try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0))
        } else {
            bodyReceived(count: Int64(body.count))
        }
    }

    /// `count` bytes of the final response's body were read (by the caller, for a stream).
    func bodyReceived(count: Int64) {
        counts.withLock { $0.bytesReceived += count }
    }

    /// The pipeline follows a redirect from `from` to `to`.
    func redirected(from: TransportRequest, to: TransportRequest, statusCode: Int) {
        counts.withLock { $0.redirectCount += 1 }
        tell(.redirected(from: from, to: to, statusCode: statusCode))
    }

    /// An attempt failed with `error` and another starts after `delay` seconds.
    func retrying(attempt: Int, error: RequestError, delay: TimeInterval) {
        tell(.retrying(attempt: attempt, error: error, delay: delay))
    }

    /// The performance ended, failing with `error` if given.
    func finished(error: RequestError?) {
        let counts = counts.withLock { $0 }
        let metrics = RequestMetrics(
            request: counts.request ?? error?.request.map { TransportRequest(urlRequest: $0) }, totalDuration: Self.now - start,
            timeToFirstByte: counts.firstHead, bytesSent: counts.bytesSent, bytesReceived: counts.bytesReceived,
            redirectCount: counts.redirectCount, statusCode: counts.statusCode, error: error,
            cacheOutcome: counts.cacheOutcome
        )
        tell(.finished(metrics))
    }

    private func tell(_ kind: RequestEvent.Kind) {
        let event = RequestEvent(requestID: requestID, kind: kind)
        for observe in observers { observe(event) }
    }
}
