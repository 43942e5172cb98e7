#if ServerObservability
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import Tracing

extension ApiClient {
    /// Returns a copy that traces each call as one client span of `tracer`, a child of the
    /// caller's `ServiceContext`, and sends the span's trace on in every request on the wire
    /// through the tracer's `inject` (`traceparent`/`tracestate` with a W3C tracer such as
    /// swift-otel's). Without `tracer`, the `InstrumentationSystem.tracer` of the moment a call
    /// starts: this may come before the bootstrap.
    ///
    /// ```swift
    /// InstrumentationSystem.bootstrap(otelTracer)       // once, at startup
    /// let client = ApiClient(baseUrl: url).tracing()
    /// try await withSpan("GET /orders") { _ in          // the server's own span
    ///     try await client.get("stock").perform()       // a child span named "GET"
    /// }
    /// ```
    /// The span is named after the method and carries OpenTelemetry's HTTP client attributes
    /// (`http.request.method`, `url.full` with secrets redacted, `server.address`, `server.port`,
    /// `http.response.status_code`, `error.type`, `http.request.resend_count`), and the call's
    /// name when it has one (`swiftapidsl.request.name`, see `RequestModifier.name(_:)`); retries and
    /// redirects are events of it, not spans of their own. Its middleware finds each request's call
    /// by the call's `requestID`, so a request sent from another task still gets its call's span.
    public func tracing(_ tracer: (any Tracer)? = nil) -> ApiClient {
        let spans = CallSpans(tracer: tracer)
        return observer(spans.observe).middleware(spans.injecting)
    }
}

/// The span of each call a client performs, from its `RequestEvent`s, and the
/// middleware that sends the span's context on. The observer's events and the middleware's
/// `Middleware.Call` carry the same `requestID`, by which the middleware finds its call's span.
final class CallSpans: Sendable {
    private struct Open {
        let span: any Span
        var resends = 0
    }

    private struct State {
        var open: [Int: Open] = [:]
    }

    /// The tracer given, else `nil` for the bootstrapped one.
    private let givenTracer: (any Tracer)?
    private let state = Guarded(State())

    init(tracer: (any Tracer)?) { givenTracer = tracer }

    private var tracer: any Tracer { givenTracer ?? InstrumentationSystem.tracer }

    private func start(_ request: TransportRequest?) -> any Span {
        let span = tracer.startSpan(request?.method.rawValue ?? "HTTP", context: ServiceContext.current ?? .topLevel, ofKind: .client)
        Self.describe(request, on: span)
        return span
    }

    private static func describe(_ request: TransportRequest?, on span: any Span) {
        // A tracer that records nothing (the default before bootstrapping) costs no URL parsing.
        guard span.isRecording else { return }
        if let method = request?.method.rawValue { span.attributes["http.request.method"] = method }
        // The call's name (`.name(_:)`): a generated OpenAPI client's operationID, say.
        if let name = request?.name { span.attributes["swiftapidsl.request.name"] = name }
        if let url = CallFacts.redactedURL(request?.url) { span.attributes["url.full"] = url }
        if let server = CallFacts.server(of: request?.url) {
            span.attributes["server.address"] = server.address
            span.attributes["server.port"] = server.port
        }
    }

    func observe(_ event: RequestEvent) {
        switch event.kind {
        case .prepared(let request):
            prepared(request, requestID: event.requestID)
        case .redirected(_, _, let statusCode):
            resent(event.requestID, event: SpanEvent(name: "redirect", attributes: [
                "http.response.status_code": .int64(Int64(statusCode)),
            ]))
        case .retrying(let attempt, let error, _):
            resent(event.requestID, event: SpanEvent(name: "retry", attributes: [
                "attempt": .int64(Int64(attempt)),
                "error.type": .string(CallFacts.errorType(status: error.statusCode, error: error) ?? "unknown"),
            ]))
        case .finished(let metrics):
            finished(metrics, requestID: event.requestID)
        case .responseHead:
            break
        }
    }

    private func prepared(_ request: TransportRequest, requestID: Int) {
        let isNew = state.withLock { $0.open[requestID] == nil }
        // A download's continuation is prepared again: it stays one span.
        guard isNew else { return }
        let span = start(request)
        state.withLock { $0.open[requestID] = Open(span: span) }
    }

    /// Another request of the call goes on the wire: OpenTelemetry's resend count counts both.
    private func resent(_ requestID: Int, event: SpanEvent) {
        let found: (any Span, Int)? = state.withLock { state in
            guard state.open[requestID] != nil else { return nil }
            state.open[requestID]!.resends += 1
            return (state.open[requestID]!.span, state.open[requestID]!.resends)
        }
        guard let (span, resends) = found else { return }
        span.addEvent(event)
        span.attributes["http.request.resend_count"] = resends
    }

    private func finished(_ metrics: RequestMetrics, requestID: Int) {
        let open = state.withLock { $0.open.removeValue(forKey: requestID) }
        // A call whose modifier failed was never prepared: its span starts and ends here.
        let span = open?.span ?? start(metrics.request)
        guard span.isRecording else { return span.end() }
        // After a redirect the URL and server are the final hop's; a call never prepared has
        // just been described by `start`.
        if open != nil, metrics.redirectCount > 0 { Self.describe(metrics.request, on: span) }
        if let status = metrics.statusCode { span.attributes["http.response.status_code"] = status }
        if metrics.source != .network { span.attributes["swiftapidsl.cache.outcome"] = metrics.source.rawValue }
        if let type = CallFacts.errorType(status: metrics.statusCode, error: metrics.error) {
            span.attributes["error.type"] = type
            if let error = metrics.error { span.recordError(error) }
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }

    /// The context of `call`, else the current task's own.
    private func context(of call: Middleware.Call) -> ServiceContext? {
        let span = call.requestID.flatMap { id in state.withLock { $0.open[id]?.span } }
        return span?.context ?? ServiceContext.current
    }

    /// Puts the call's context into each request on the wire through the tracer's `inject`, and
    /// makes it the current context for the rest of the chain (an engine that traces its own
    /// requests, such as AsyncHTTPClient, then starts its span as a child of the call's).
    var injecting: Middleware {
        Middleware("tracing", seeingCall: { [self] request, next, call in
            guard let context = context(of: call) else { return try await next(request) }
            var request = request
            tracer.inject(context, into: &request.headerFields, using: HeaderFieldsInjector())
            return try await ServiceContext.withValue(context) { try await next(request) }
        })
    }
}

/// Writes a tracer's propagation fields (`traceparent`…) into a request's header fields.
struct HeaderFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HeaderFields) {
        carrier.set(value, for: key)
    }
}
#endif
