import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One performance of a request as its observers see it: the pipeline reports what happens at
/// a few marked points, the trace measures and forwards it to each observer in order.
///
/// Its metrics are kept under a lock: a middleware may send requests on from several tasks at
/// once (a hedged request, say). There is no trace at all (the pipeline holds `nil`) when the
/// client has no observer.
final class RequestTrace: Sendable {
    private static let lastRequestID = Locked(0)

    private let observers: [@Sendable (RequestEvent) -> Void]
    /// The id the observers' events carry, and every request of the call on the wire.
    let requestID: Int
    private let start = RequestTrace.now
    /// The metrics so far; the duration and the error are set at the end.
    private let metrics = Locked(RequestMetrics())

    /// A trace for `observers`, which are not empty: a call of a client without observers makes
    /// none (``ApiClient/startingTrace()``), and never reaches this file.
    init(observers: [@Sendable (RequestEvent) -> Void]) {
        self.observers = observers
        requestID = Self.lastRequestID.withLock { $0 += 1; return $0 }
    }

    /// A monotonic clock in seconds (`ContinuousClock` needs macOS 13).
    private static var now: TimeInterval { ProcessInfo.processInfo.systemUptime }

    /// Modifiers and authentication ran.
    func prepared(_ request: TransportRequest) {
        metrics.withLock { $0.request = request }
        tell(.prepared(request))
    }

    /// `request` goes to the transport: its body counts as sent.
    func sending(_ request: TransportRequest) {
        let size = request.body.map { (try? $0.contentLength()) ?? 0 } ?? Int64(request.httpBody?.count ?? 0)
        metrics.withLock { metrics in
            metrics.request = request
            metrics.bytesSent += size
        }
    }

    /// The response head to `request` arrived (the body is still to come), now or at `arrival`
    /// when the transport held it back.
    func headReceived(_ head: ResponseHead, at arrival: TimeInterval?, for request: TransportRequest) {
        let elapsed = (arrival ?? Self.now) - start
        metrics.withLock { metrics in
            metrics.timeToFirstByte = metrics.timeToFirstByte ?? elapsed
            metrics.statusCode = head.statusCode
        }
        tell(.responseHead(statusCode: head.statusCode, headerFields: head.headerFields, request: request))
    }

    /// The middleware chain returned `response`, the one the call goes on with: its status
    /// counts when no response came from the wire (a cache hit), and it carries the cache's outcome.
    func answered(_ response: TransportResponse) {
        let source = response.source
        metrics.withLock { metrics in
            // A hit answers the last hop without the network: its status is the call's (after a
            // redirect the wire's last status was the 3xx).
            metrics.statusCode = source == .stored ? response.statusCode : metrics.statusCode ?? response.statusCode
            metrics.source = source
        }
    }

    /// The final response's body was read: `body`, or for a download the contents of `file`
    /// (`body` then holds only what validators see).
    func bodyReceived(_ body: Data, file: URL?) {
        let fileSize = file.map { (try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0 }
        bodyReceived(count: Int64(fileSize ?? body.count))
    }

    /// `count` bytes of the final response's body were read (by the caller, for a stream).
    func bodyReceived(count: Int64) {
        metrics.withLock { $0.bytesReceived += count }
    }

    /// `body` as the caller of `stream()` reads it, telling observers the bytes read and, once,
    /// how it ended: at its end, failed, or released before its end.
    func observing(_ body: ResponseBody) -> ResponseBody {
        var received: Int64 = 0
        return BodyTap(body, onChunk: { received += Int64($0.count) }, onEnd: { [self] end in
            bodyReceived(count: received)
            switch end {
            case .finished: finished(error: nil)
            case .failed(let error): finished(error: error.asRequestError)
            case .released: finished(error: RequestError.fatal(.unexpected(CancellationError())))
            }
        }).body
    }

    /// The pipeline follows a redirect from `from` to `to`.
    func redirected(from: TransportRequest, to: TransportRequest, statusCode: Int) {
        metrics.withLock { $0.redirectCount += 1 }
        tell(.redirected(from: from, to: to, statusCode: statusCode))
    }

    /// An attempt failed with `error` and another starts after `delay` seconds.
    func retrying(attempt: Int, error: RequestError, delay: TimeInterval) {
        tell(.retrying(attempt: attempt, error: error, delay: delay))
    }

    /// The performance ended, failing with `error` if given.
    func finished(error: RequestError?) {
        var metrics = metrics.withLock { $0 }
        metrics.totalDuration = Self.now - start
        metrics.error = error
        metrics.request = metrics.request ?? error?.request.map { TransportRequest(urlRequest: $0) }
        tell(.finished(metrics))
    }

    private func tell(_ kind: RequestEvent.Kind) {
        let event = RequestEvent(requestID: requestID, kind: kind)
        for observe in observers { observe(event) }
    }
}
