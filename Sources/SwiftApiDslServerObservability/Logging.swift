#if ServerObservability
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SwiftApiDsl

extension ApiClient {
    /// Returns a copy that logs one line per call to `logger`: at `level` when it succeeds, at
    /// `failureLevel` when it fails.
    ///
    /// ```swift
    /// let client = ApiClient(baseUrl: url).logging(Logger(label: "orders-api"))
    /// // info: GET https://orders.internal/v1/items?page=2 → 200 [http.request.method: GET, http.response.status_code: 200, duration: 0.084, attempt: 1, …]
    /// ```
    /// The metadata: `http.request.method`, `url.full` (user, password and secret query values
    /// redacted, as in traces), `http.response.status_code`, `duration` (seconds), `attempt`,
    /// `cache.outcome`, `request.id`, and for a failure `error.type`, `error.stage` (the
    /// `RequestError` case) and `error` (its redacted description). No header is logged.
    public func logging(_ logger: Logger, level: Logger.Level = .info, failureLevel: Logger.Level = .error) -> ApiClient {
        observer(CallLog(logger: logger, level: level, failureLevel: failureLevel).observe)
    }
}

/// One log line per call, from its `RequestEvent`s.
final class CallLog: Sendable {
    private let logger: Logger
    private let level: Logger.Level
    private let failureLevel: Logger.Level
    /// The attempt each call under way is at, by request ID, when past the first.
    private let attempts = Guarded([Int: Int]())

    init(logger: Logger, level: Logger.Level, failureLevel: Logger.Level) {
        self.logger = logger
        self.level = level
        self.failureLevel = failureLevel
    }

    func observe(_ event: RequestEvent) {
        switch event.kind {
        case .retrying(let attempt, _, _): attempts.withLock { $0[event.requestID] = attempt }
        case .finished(let metrics): finished(metrics, requestID: event.requestID)
        default: break
        }
    }

    private func finished(_ metrics: RequestMetrics, requestID: Int) {
        let attempt = attempts.withLock { $0.removeValue(forKey: requestID) } ?? 1
        // A line the logger drops costs no URL parsing and no metadata.
        guard logger.logLevel <= (metrics.error == nil ? level : failureLevel) else { return }
        let method = metrics.request?.method.rawValue ?? "GET"
        let url = CallFacts.redactedURL(metrics.request?.url) ?? "<no URL>"
        var metadata: Logger.Metadata = [
            "http.request.method": "\(method)",
            "url.full": "\(url)",
            "duration": "\(String(format: "%.3f", metrics.totalDuration))",
            "attempt": "\(attempt)",
            "cache.outcome": "\(metrics.source.rawValue)",
            "request.id": "\(requestID)",
        ]
        if let status = metrics.statusCode { metadata["http.response.status_code"] = "\(status)" }
        let outcome = metrics.statusCode.map(String.init) ?? "no response"
        guard let error = metrics.error else {
            logger.log(level: level, "\(method) \(url) → \(outcome)", metadata: metadata)
            return
        }
        metadata["error.type"] = "\(CallFacts.errorType(status: metrics.statusCode, error: error) ?? "unknown")"
        metadata["error.stage"] = "\(CallFacts.stage(of: error))"
        metadata["error"] = "\(error.description)"
        logger.log(level: failureLevel, "\(method) \(url) failed (\(outcome))", metadata: metadata)
    }
}
#endif
