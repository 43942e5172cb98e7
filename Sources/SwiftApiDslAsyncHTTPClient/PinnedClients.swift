#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import SwiftApiDsl

/// The `HTTPClient`s that send requests with pins, one per host and settings, at most
/// ``capacity`` of them.
///
/// AsyncHTTPClient makes each connection's TLS handler itself and takes no certificate
/// verification callback. What it does run is its configuration's connection initializer, on
/// each new connection once the handshake (and its verification) is done and before the
/// connection takes a request: there the leaf certificate's key is checked against the host's
/// pins, and a connection that fails is closed unused, so no request byte reaches the server
/// (`TLSWireTests` pins that order). NIOSSL shows that initializer the peer's leaf only, not the
/// rest of its chain: on this engine a pin must be a server key. The initializer belongs to a
/// client, not to a request, hence one client (with its own connections) per host and settings,
/// made on first use. The least recently used is shut down when a new one would pass the bound,
/// once its requests in flight end, and all of them with the transport.
final class PinnedClients: Sendable {
    private struct Key: Hashable, Sendable {
        let host: String
        let port: Int
        let settings: TLSSettings
    }

    /// How many pinned clients a transport keeps at most: 64, as many as TLS configurations.
    static let capacity = AsyncHTTPClientTransport.tlsTableCapacity

    private let configuration: HTTPClient.Configuration
    private let eventLoopGroup: any EventLoopGroup
    private let clients = BoundedTable<Key, HTTPClient>(capacity: PinnedClients.capacity) { $0.shutdown { _ in } }

    init(configuration: HTTPClient.Configuration, eventLoopGroup: any EventLoopGroup) {
        self.configuration = configuration
        self.eventLoopGroup = eventLoopGroup
    }

    /// The client that checks the pins of `request`'s host, held until `release` is called, or
    /// `nil` when the request carries no pins or is not https.
    func client(for request: TransportRequest) -> (value: HTTPClient, release: @Sendable () -> Void)? {
        guard let settings = request.tls, !settings.pins.isEmpty, let url = request.url, url.scheme?.lowercased() == "https",
              let host = url.host
        else { return nil }
        return clients.lease(Key(host: host, port: url.port ?? 443, settings: settings)) {
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
            return HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        }
    }

    /// How many clients are kept, and how many evicted ones wait for their requests to end.
    var count: (kept: Int, retiring: Int) { clients.count }

    /// Shuts every client down.
    func shutdown() async throws {
        for client in clients.removeAll() { try await client.shutdown() }
    }

    /// Starts shutting every client down without waiting.
    func shutdownLater() {
        for client in clients.removeAll() { client.shutdown { _ in } }
    }
}
#endif
