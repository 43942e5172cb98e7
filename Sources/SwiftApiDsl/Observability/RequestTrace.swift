import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One performance of a request as its observers see it: the pipeline reports what happens at
/// a few marked points, the trace measures and forwards it to each observer in order.
///
/// Used by the one task that performs the request, so it needs no lock (hence `@unchecked`:
/// the middleware chain calls it from that task too). There is none at all (the pipeline holds
/// `nil`) when the client has no observer.
final class RequestTrace: @unchecked Sendable {
    private static let lastRequestID = Locked(0)

    private let observers: [any RequestObserver]
    private let requestID: Int
    private let start = RequestTrace.now
    private var firstHead: TimeInterval?
    private var request: TransportRequest?
    private var bytesSent: Int64 = 0
    private var bytesReceived: Int64 = 0
    private var redirectCount = 0
    private var statusCode: Int?

    /// A trace for a client's observers, or `nil` when it has none.
    init?(observers: [any RequestObserver]) {
        guard !observers.isEmpty else { return nil }
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
        self.request = request
        let event = ObservedRequest(requestID: requestID, request: request.urlRequest, body: request.body)
        for observer in observers { observer.requestPrepared(event) }
    }

    /// `request` goes to the transport: its body counts as sent.
    func sending(_ request: TransportRequest) {
        self.request = request
        if let body = request.body {
            bytesSent += (try? body.contentLength()) ?? 0
        } else {
            bytesSent += Int64(request.httpBody?.count ?? 0)
        }
    }

    /// The response head to `request` arrived (the body is still to come).
    func headReceived(_ head: ResponseHead, for request: TransportRequest) {
        firstHead = firstHead ?? Self.now - start
        statusCode = head.statusCode
        let event = ObservedResponseHead(requestID: requestID, request: request.urlRequest, statusCode: head.statusCode, headers: head.headerFields.merged)
        for observer in observers { observer.responseHeadReceived(event) }
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
        bytesReceived += count
    }

    /// The pipeline follows a redirect from `from` to `to`.
    func redirected(from: URLRequest, to: URLRequest, statusCode: Int) {
        redirectCount += 1
        let event = ObservedRedirect(requestID: requestID, from: from, to: to, statusCode: statusCode)
        for observer in observers { observer.requestRedirected(event) }
    }

    /// An attempt failed with `error` and another starts after `delay` seconds.
    func retrying(attempt: Int, error: RequestError, delay: TimeInterval) {
        let event = ObservedRetry(requestID: requestID, attempt: attempt, error: error, delay: delay)
        for observer in observers { observer.requestRetrying(event) }
    }

    /// The performance ended, failing with `error` if given.
    func finished(error: RequestError?) {
        let metrics = RequestMetrics(
            requestID: requestID, request: request?.urlRequest ?? error?.request, totalDuration: Self.now - start,
            timeToFirstByte: firstHead, bytesSent: bytesSent, bytesReceived: bytesReceived,
            redirectCount: redirectCount, statusCode: statusCode, error: error
        )
        for observer in observers { observer.requestFinished(metrics) }
    }
}

extension RequestBuilder {
    /// Runs one performance of the request (`body`) under a trace of the client's observers,
    /// which hears of its end, success or failure, exactly once. What it throws is turned by the
    /// client's ``ApiClient/mapError(_:)`` unless `mapsErrors` is `false` (a caller that maps itself).
    func observed<T>(mapsErrors: Bool = true, _ body: (RequestTrace?) async throws -> T) async throws -> T {
        let trace = RequestTrace(observers: client.observers)
        do {
            let result = try await body(trace)
            trace?.finished(error: nil)
            return result
        } catch {
            trace?.finished(error: error.asRequestError)
            throw mapsErrors ? client.mapped(error) : error
        }
    }
}
