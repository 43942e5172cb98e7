#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import SwiftApiDsl

/// The `HTTPClient`s that send requests with pins, one per host and settings.
///
/// AsyncHTTPClient makes each connection's TLS handler itself and takes no certificate
/// verification callback. What it does run is its configuration's connection initializer, on
/// each new connection once the handshake (and its verification) is done and before the
/// connection takes a request: there the leaf certificate's key is checked against the host's
/// pins, and a connection that fails is closed unused, so no request byte reaches the server.
/// NIOSSL shows that initializer the peer's leaf only, not the rest of its chain: on this engine
/// a pin must be a server key. The initializer belongs to a client, not to a request, hence one
/// client (with its own connections) per host and settings, made on first use and shut down with
/// the transport.
final class PinnedClients: Sendable {
    private struct Key: Hashable {
        let host: String
        let port: Int
        let settings: TLSSettings
    }

    private let configuration: HTTPClient.Configuration
    private let eventLoopGroup: any EventLoopGroup
    private let clients = NIOLockedValueBox<[Key: HTTPClient]>([:])

    init(configuration: HTTPClient.Configuration, eventLoopGroup: any EventLoopGroup) {
        self.configuration = configuration
        self.eventLoopGroup = eventLoopGroup
    }

    /// The client that checks the pins of `request`'s host, or `nil` when it carries none or is not https.
    func client(for request: TransportRequest) -> HTTPClient? {
        guard let settings = request.tls, !settings.pins.isEmpty, let url = request.url, url.scheme?.lowercased() == "https",
              let host = url.host
        else { return nil }
        let key = Key(host: host, port: url.port ?? 443, settings: settings)
        return clients.withLockedValue { clients in
            if let client = clients[key] { return client }
            var configuration = self.configuration
            let checkPins: @Sendable (Channel) -> EventLoopFuture<Void> = { channel in
                channel.nioSSL_peerCertificate().flatMapThrowing { leaf in
                    try settings.checkPins(host: host, chain: leaf.map { [Data(try $0.toDERBytes())] } ?? [])
                }
            }
            configuration.http1_1ConnectionDebugInitializer = checkPins
            configuration.http2ConnectionDebugInitializer = checkPins
            // A key that does not match will not match on the next attempt either: fail at once
            // rather than retry until the connect timeout.
            configuration.connectionPool.retryConnectionEstablishment = false
            let client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
            clients[key] = client
            return client
        }
    }

    /// Takes every client out, for shutting down.
    private func takeAll() -> [HTTPClient] {
        clients.withLockedValue { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
    }

    /// Shuts every client down, after their requests in flight end.
    func shutdown() async throws {
        for client in takeAll() { try await client.shutdown() }
    }

    /// Starts shutting every client down without waiting.
    func shutdownLater() {
        for client in takeAll() { client.shutdown { _ in } }
    }
}
#endif
