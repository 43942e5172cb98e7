import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers
import NIOCore
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
/// Each exchange honours `timeoutInterval` as an idle timeout with sub-second precision,
/// streams file and multipart bodies from disk with a `Content-Length`, streams downloads to
/// disk, and stops at once when the calling task is cancelled.
public final class AsyncHTTPClientTransport: HTTPTransport, Sendable {
    /// The client the requests go through. It never follows redirects.
    public let httpClient: HTTPClient
    private let ticker: IdleWatchdogTicker
    private let isShared: Bool
    private let isShutDown = NIOLockedValueBox(false)

    /// A transport for the whole process, on `HTTPClient.defaultEventLoopGroup`, with
    /// ``defaultConfiguration``. It is never shut down; ``shutdown()`` does nothing on it.
    public static let shared = AsyncHTTPClientTransport(configuration: defaultConfiguration, isShared: true)

    /// The configuration ``shared`` uses and `init` defaults to: AsyncHTTPClient's defaults,
    /// with response decompression on (gzip and deflate, as URLSession does) and no redirects.
    public static var defaultConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.decompression = .enabled(limit: .none)
        return configuration
    }

    /// Creates a transport with its own `HTTPClient` on `eventLoopGroup`, made from
    /// `configuration`. Its `redirectConfiguration` is replaced by `.disallow`: redirects
    /// follow the request's ``RedirectPolicy``, as on every transport.
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
        ticker = IdleWatchdogTicker(eventLoop: eventLoopGroup.next())
        self.isShared = isShared
    }

    deinit {
        if claimShutdown() {
            ticker.stop()
            httpClient.shutdown { _ in }
        }
    }

    /// Shuts the client down, after the requests in flight end. Later requests fail.
    /// Calling it again, or on ``shared``, does nothing.
    public func shutdown() async throws {
        guard claimShutdown() else { return }
        ticker.stop()
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

    public func data(for request: TransportRequest) async throws -> (Data, HTTPURLResponse) {
        try await exchange(request) { response, watchdog in
            var collected: ByteBuffer?
            for try await chunk in response.body {
                watchdog?.noteActivity()
                if collected == nil {
                    collected = chunk
                } else {
                    collected?.writeImmutableBuffer(chunk)
                }
            }
            return collected.map { Data(buffer: $0) } ?? Data()
        }
    }

    public func download(for request: TransportRequest, to file: URL) async throws -> HTTPURLResponse {
        try await exchange(request) { response, watchdog in
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            // AsyncHTTPClient reads the next chunk from the socket only when this loop asks for
            // it, so memory stays at a few chunks whatever the size of the body.
            for try await chunk in response.body {
                watchdog?.noteActivity()
                try handle.write(contentsOf: chunk.readableBytesView)
            }
        }.1
    }

    /// Runs one exchange: sends `request`, then lets `readBody` consume the response body.
    ///
    /// With a positive `timeoutInterval` an ``IdleWatchdog`` guards the exchange and ends it
    /// after that long without traffic, as `URLError(.timedOut)`. Cancelling the calling task
    /// ends it too, as `CancellationError`.
    private func exchange<Body: Sendable>(
        _ request: TransportRequest,
        readBody: @escaping @Sendable (HTTPClientResponse, IdleWatchdog?) async throws -> Body
    ) async throws -> (Body, HTTPURLResponse) {
        try Task.checkCancellation()
        let urlRequest = request.urlRequest
        let client = httpClient
        let watchdog = urlRequest.timeoutInterval > 0
            ? IdleWatchdog(timeout: urlRequest.timeoutInterval, ticker: ticker)
            : nil
        let run: @Sendable () async throws -> (Body, HTTPURLResponse) = {
            let outgoing = try HTTPClientRequest(request, watchdog: watchdog)
            // No deadline: AsyncHTTPClient's would count the whole upload, not idle time.
            let response = try await client.execute(outgoing, deadline: .distantFuture)
            watchdog?.noteActivity()
            let head = try HTTPURLResponse.make(from: response, for: urlRequest)
            return (try await readBody(response, watchdog), head)
        }
        do {
            guard let watchdog else { return try await run() }
            return try await watchdog.guarding(run)
        } catch {
            throw TransportFailure.map(error, for: urlRequest, timedOut: watchdog?.hasFired ?? false)
        }
    }
}
