#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import SwiftApiDsl

/// A transport that sends requests with AsyncHTTPClient (SwiftNIO) instead of URLSession.
///
/// ```swift
/// let client = ApiClient(asyncHTTPClient: .shared, baseUrl: url)
/// ```
/// The transport owns its `HTTPClient`, because the pipeline follows redirects itself and an
/// `HTTPClient` decides whether it follows them once, for all its requests: the transport makes
/// one from the configuration it is given with `redirectConfiguration` set to `.disallow`.
///
/// **Lifetime.** ``shared`` lives as long as the process and is never shut down. A transport
/// you create owns its client: call ``shutdown()`` when you are done with it; if you don't, the
/// client is shut down when the last reference to the transport goes away. The event loop
/// group is never shut down by the transport: it belongs to whoever passed it.
///
/// Each exchange goes through AsyncHTTPClient's delegate API: no task per exchange, the body
/// handed over with back-pressure (AsyncHTTPClient reads the socket only as fast as the body is
/// consumed), file and multipart bodies streamed from disk with a `Content-Length`, and an
/// `HTTPClient.Task` that the pipeline cancels on idle timeout or task cancellation.
///
/// A request's `TLSSettings` become its `TLSConfiguration`; one with pins goes through a client
/// of the transport's own per host that checks them on each new connection (the TLS and pinning
/// article of SwiftApiDsl). Both tables belong to the transport and are bounded: at most 64
/// configurations and 64 pinned clients, the least recently used
/// dropped first (a pinned client shut down once its requests end), and everything with
/// ``shutdown()``.
public final class AsyncHTTPClientTransport: HTTPTransport, Sendable {
    /// The client the requests go through. It never follows redirects.
    public let httpClient: HTTPClient
    private let isShared: Bool
    /// The clients for requests with pins (see `PinnedClients`).
    let pinned: PinnedClients
    /// What each request's `TLSSettings` became, by settings.
    let tlsConfigurations = BoundedTable<TLSSettings, TLSConfiguration>(capacity: tlsTableCapacity)
    /// Where each exchange runs (see `EventLoopAffinity`); the pinned clients share the group.
    private let loops: EventLoopAffinity

    /// How many TLS configurations a transport keeps at most (as many pinned clients, see
    /// `PinnedClients.capacity`): a process that meets more settings makes them again.
    static let tlsTableCapacity = 64
    private let isShutDown = NIOLockedValueBox(false)

    /// A transport for the whole process, on `HTTPClient.defaultEventLoopGroup`, with
    /// ``defaultConfiguration``. It is never shut down; ``shutdown()`` does nothing on it.
    public static let shared = AsyncHTTPClientTransport(configuration: defaultConfiguration, isShared: true)

    /// The configuration ``shared`` uses and `init` defaults to: AsyncHTTPClient's defaults,
    /// with response decompression on (gzip and deflate, as URLSession does), no redirects, and
    /// no tracer of AsyncHTTPClient's own, and no connection attempts repeated by the engine.
    ///
    /// AsyncHTTPClient takes the bootstrapped tracer by default, and through the delegate API this
    /// transport uses it starts a span per exchange that is no child of the caller's (it starts
    /// where no task-local context is seen: each exchange a trace of its own) and sends no
    /// `traceparent`. A client's calls are traced by SwiftApiDslServerObservability's `tracing()`
    /// instead; set `tracing.tracer` on a configuration of your own to have both.
    public static var defaultConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.decompression = .enabled(limit: .none)
        // Without a bootstrap AsyncHTTPClient would keep the no-op tracer and still start a span per
        // request (5 % of a request's CPU at 64 in flight, Benchmarks/NOTES.md): none costs nothing.
        configuration.tracing.tracer = nil
        // A refused certificate (or a refused connection) fails at once, as on URLSession,
        // instead of after AsyncHTTPClient's retries until its 10 s connect timeout; retries are
        // the request's `RetryPolicy`.
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// Creates a transport with its own `HTTPClient` on `eventLoopGroup`, made from
    /// `configuration`. Its `redirectConfiguration` is replaced by `.disallow`: redirects
    /// follow the request's `RedirectPolicy`, as on every transport.
    public convenience init(
        configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.defaultConfiguration,
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup
    ) {
        self.init(configuration: configuration, eventLoopGroup: eventLoopGroup, isShared: false)
    }

    private init(
        configuration: HTTPClient.Configuration,
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup,
        isShared: Bool
    ) {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        httpClient = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        pinned = PinnedClients(configuration: configuration, eventLoopGroup: eventLoopGroup)
        loops = EventLoopAffinity(group: eventLoopGroup)
        self.isShared = isShared
    }

    deinit {
        if claimShutdown() {
            httpClient.shutdown { _ in }
            pinned.shutdownLater()
            _ = tlsConfigurations.removeAll()
        }
    }

    /// Shuts the client down, after the requests in flight end. Later requests fail.
    /// Calling it again, or on ``shared``, does nothing.
    public func shutdown() async throws {
        guard claimShutdown() else { return }
        try await pinned.shutdown()
        _ = tlsConfigurations.removeAll()
        try await httpClient.shutdown()
    }

    /// Whether this call is the one that shuts the client down.
    private func claimShutdown() -> Bool {
        guard !isShared else { return false }
        return isShutDown.withLockedValue { done in
            defer { done = true }
            return !done
        }
    }

    public func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
        try Task.checkCancellation()
        let first = ExchangeDelegate(request: request, control: control, loops: loops)
        do {
            return try await exchange(request, delegate: first, control: control)
        } catch where first.wasLostBeforeAnswer && KeepAliveRace.allowsResend(of: request) && !control.isAborted {
            // The keep-alive race (see `KeepAliveRace`): sent once more, on a new connection,
            // within this exchange.
            let second = ExchangeDelegate(request: request, control: control, loops: loops, reportedBefore: first.bytesReported)
            return try await exchange(request, delegate: second, control: control)
        }
    }

    /// Sends `request` once through `delegate` and waits for the response head.
    private func exchange(_ request: TransportRequest, delegate: ExchangeDelegate, control: ExchangeControl) async throws -> TransportResponse {
        // A request with pins goes through a client that checks them on each new connection,
        // held until the exchange ends: evicted meanwhile, it is shut down only then.
        let pinnedClient = pinned.client(for: request)
        let client = pinnedClient?.value ?? httpClient
        // The delegate's loop (`EventLoopAffinity`). A second pick per exchange made every
        // exchange land on the same loop of two, and every connection with it
        // (Benchmarks/NOTES.md, "every exchange on one event loop").
        let eventLoop = delegate.eventLoop
        let outgoing: HTTPClient.Request
        do {
            let tls = try request.tls.map { settings in
                try tlsConfigurations.value(for: settings) { try settings.tlsConfiguration(for: request.url?.host ?? "the request") }
            }
            outgoing = try HTTPClient.Request(request, eventLoop: eventLoop, control: control, tls: tls)
        } catch {
            pinnedClient?.release()
            delegate.reportEnd()
            throw TransportFailure.map(error, for: request)
        }
        // No deadline: AsyncHTTPClient's would count the whole exchange, not idle time; the
        // pipeline enforces the idle timeout through `control`. The connection may be on any loop.
        let task = client.execute(request: outgoing, delegate: delegate, eventLoop: .delegate(on: eventLoop), deadline: nil)
        if let pinnedClient { task.futureResult.whenComplete { _ in pinnedClient.release() } }
        // A client that is shut down fails the task without telling the delegate.
        task.futureResult.whenFailure { delegate.fail($0) }
        control.onAbort { _ in task.cancel() }
        return try await delegate.response()
    }
}
#endif
