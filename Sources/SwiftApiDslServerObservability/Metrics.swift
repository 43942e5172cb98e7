#if ServerObservability
import CoreMetrics
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

extension ApiClient {
    /// Returns a copy that counts its calls with swift-metrics, through `factory` (unless given,
    /// the `MetricsSystem.factory` of the moment a value is recorded, so this may come before the
    /// bootstrap).
    ///
    /// ```swift
    /// MetricsSystem.bootstrap(PrometheusMetricsFactory())   // once, at startup
    /// let client = ApiClient(baseUrl: url).metrics()
    /// ```
    /// Records `http.client.request.duration` (a timer per call, with `http.request.method`,
    /// `http.response.status_code`, `server.address`, `server.port` and `error.type`),
    /// `http.client.active_requests` (a meter of the calls under way), and the counters
    /// `swiftapidsl.client.retries`, `swiftapidsl.client.credential_refreshes` and
    /// `swiftapidsl.client.cache_outcomes` (by `outcome`). No dimension holds a path or a query.
    public func metrics(_ factory: (any MetricsFactory)? = nil) -> ApiClient {
        observer(CallMetrics(factory: factory).observe)
    }
}

/// The metrics of each call, from its `RequestEvent`s.
final class CallMetrics: Sendable {
    /// The factory given, else `nil` for the bootstrapped one.
    private let givenFactory: (any MetricsFactory)?
    /// The in-flight meter's dimensions of each call under way, by request ID (a redirect may
    /// change the server before the call ends; the meter goes down where it went up).
    private let inFlight = Guarded([Int: [(String, String)]]())

    init(factory: (any MetricsFactory)?) { givenFactory = factory }

    private var factory: any MetricsFactory { givenFactory ?? MetricsSystem.factory }

    private static func serverDimensions(_ url: URL?) -> [(String, String)] {
        guard let server = CallFacts.server(of: url) else { return [] }
        return [("server.address", server.address), ("server.port", String(server.port))]
    }

    func observe(_ event: RequestEvent) {
        switch event.kind {
        case .prepared(let request): prepared(request, requestID: event.requestID)
        case .retrying(_, let error, _): retrying(after: error)
        case .finished(let metrics): finished(metrics, requestID: event.requestID)
        default: break
        }
    }

    private func prepared(_ request: TransportRequest, requestID: Int) {
        let dimensions = [("http.request.method", request.method.rawValue)] + Self.serverDimensions(request.url)
        // A download's continuation is prepared again: it is still one call in flight.
        let isNew = inFlight.withLock { calls in
            guard calls[requestID] == nil else { return false }
            calls[requestID] = dimensions
            return true
        }
        if isNew { Meter(label: "http.client.active_requests", dimensions: dimensions, factory: factory).increment() }
    }

    private func retrying(after error: RequestError) {
        let dimensions = Self.serverDimensions(error.request?.url)
        // The replay after a refreshed credential is told as a retry whose reason is the refusal.
        if (error.validationError as? ApiClientError)?.code == .credentialExpired {
            Counter(label: "swiftapidsl.client.credential_refreshes", dimensions: dimensions, factory: factory).increment()
        } else {
            Counter(label: "swiftapidsl.client.retries", dimensions: dimensions, factory: factory).increment()
        }
    }

    private func finished(_ metrics: RequestMetrics, requestID: Int) {
        if let dimensions = inFlight.withLock({ $0.removeValue(forKey: requestID) }) {
            Meter(label: "http.client.active_requests", dimensions: dimensions, factory: factory).decrement()
        }
        var dimensions = [("http.request.method", metrics.request?.method.rawValue ?? "GET")]
        if let status = metrics.statusCode { dimensions.append(("http.response.status_code", String(status))) }
        dimensions += Self.serverDimensions(metrics.request?.url)
        if let type = CallFacts.errorType(status: metrics.statusCode, error: metrics.error) {
            dimensions.append(("error.type", type))
        }
        Timer(label: "http.client.request.duration", dimensions: dimensions, factory: factory)
            .recordNanoseconds(Int64((metrics.totalDuration * 1e9).rounded()))
        Counter(label: "swiftapidsl.client.cache_outcomes", dimensions: [("outcome", metrics.source.rawValue)], factory: factory)
            .increment()
    }
}
#endif
