#if AsyncHTTPClient
import Foundation
import AsyncHTTPClient
import NIOSSL
import SwiftApiDsl
@testable import SwiftApiDslAsyncHTTPClient
import Testing

/// What a transport keeps per TLS settings is bounded and its own: a thousand distinct pinned
/// settings against nginx with TLS leave at most 64 pinned clients (each with its connections)
/// and 64 TLS configurations, and the process's descriptors with them; shutting the transport
/// down gives everything back. Memory is compared with the engine's own: an `HTTPClient` that
/// made a TLS connection leaves about 1 MiB behind after it is shut down and deallocated (the
/// system's roots, loaded for its handshake), which no bound of the library's can give back, so
/// each pinned client the library made and retired may cost what a plain client costs, no more.
/// The counts are the whole process's (`/proc`), so `Scripts/test` runs this suite with the
/// serial ones.
@Suite(.enabled(if: ProcessResources.areReadable))
struct BoundedTLSTablesWireTests {
    /// Open descriptors the process may gain meanwhile on its own (a thread, a log).
    static let descriptorSlack = 10
    /// Resident memory the allocator may keep from the clients' churn.
    static let memorySlack = 16 << 20
    /// How many settings (and plain clients) the memory comparison counts.
    static let compared = 200

    @Test(.timeLimit(.minutes(3)))
    func aThousandPinnedSettingsKeepAtMost64ClientsAndConfigurationsAndShutdownGivesThemBack() async throws {
        let transport = AsyncHTTPClientTransport()
        let url = try TLSServer.url()
        let authority = try TLSServer.authority()
        let serverPin = "sha256/" + (try TLSServer.value("TLS_SERVER_PIN"))
        // Settings of their own for each request: the server's pin, and one that names the index.
        func settings(_ index: Int) -> TLSSettings {
            TLSSettings(certificateAuthorities: [authority], pins: ["127.0.0.1": [serverPin, TLSServer.pin(index)]])
        }
        func request(_ index: Int) async throws {
            let response = try await ApiClient(transport: transport, baseUrl: url).tls(settings(index)).get("doc.json").perform()
            #expect(response.statusCode == 200)
        }
        let descriptorsAtStart = try ProcessResources.openDescriptors()
        // The first 64 fill both tables: what is counted from there on is what the bound allows.
        for index in 0..<64 { try await request(index) }
        // The engine's own: as many plain clients, each with one request on the same settings.
        let engineGrowth = try await Self.plainClientsGrowth(url: url.appendingPathComponent("doc.json"), authority: authority)
        let (descriptors, memory) = (try ProcessResources.openDescriptors(), try ProcessResources.residentBytes())
        for index in 64..<(64 + Self.compared) { try await request(index) }
        let libraryGrowth = try ProcessResources.residentBytes() - memory
        for index in (64 + Self.compared)..<1_064 { try await request(index) }

        #expect(transport.pinned.count.kept == 64)
        #expect(transport.tlsConfigurations.count.kept == 64)
        // Evicted clients are shut down once their request ended: none waits any more.
        let retiring = try await ProcessResources.settled({ transport.pinned.count.retiring }) { $0 == 0 }
        #expect(retiring == 0)
        let descriptorsAfter = try await ProcessResources.settled(ProcessResources.openDescriptors) { $0 <= descriptors + Self.descriptorSlack }
        #expect(descriptorsAfter <= descriptors + Self.descriptorSlack, "\(descriptorsAfter - descriptors) descriptors more after 1,000 more settings")
        #expect(libraryGrowth <= engineGrowth + Self.memorySlack,
                "\(Self.compared) pinned settings: \(libraryGrowth >> 10) KiB more resident; \(Self.compared) plain clients: \(engineGrowth >> 10) KiB")

        try await transport.shutdown()
        #expect(transport.pinned.count == (0, 0))
        #expect(transport.tlsConfigurations.count == (0, 0))
        let released = try await ProcessResources.settled(ProcessResources.openDescriptors) { $0 <= descriptorsAtStart + Self.descriptorSlack }
        #expect(released <= descriptorsAtStart + Self.descriptorSlack, "\(released - descriptorsAtStart) descriptors more after the transport shut down")
    }

    /// How much resident memory grows over `compared` plain `HTTPClient`s, each made, used for
    /// one request with the authority beside the system's roots, and shut down.
    static func plainClientsGrowth(url: URL, authority: Data) async throws -> Int {
        var configuration = HTTPClient.Configuration()
        configuration.tlsConfiguration = .makeClientConfiguration()
        configuration.tlsConfiguration?.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes([UInt8](authority)))]
        let start = try ProcessResources.residentBytes()
        for _ in 0..<compared {
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            let response = try await client.get(url: url.absoluteString).get()
            #expect(response.status == .ok)
            try await client.shutdown()
        }
        return try ProcessResources.residentBytes() - start
    }
}
#endif
