#if AsyncHTTPClient
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient

/// What only this transport has to get right, beyond the shared wire cases (`Shared/`): the
/// exchange it performs on its own (no redirect followed, repeated headers joined), connection
/// errors, and the life of a transport that owns its client.
@Suite struct AsyncHTTPClientTransportTests {
    @Test func transportHandsBackARedirectWithoutFollowingIt() async throws {
        let url = try HttpBin.url("/redirect-to?url=/get&status_code=302")
        let response = try await AsyncHTTPClientTransport.shared.send(TransportRequest(urlRequest: URLRequest(url: url)), control: ExchangeControl())
        var body = Data()
        for try await chunk in response.body { body.append(chunk) }
        #expect(response.statusCode == 302)
        #expect(response.headerFields["location"] == "/get")
        #expect(body == Data())
    }

    @Test func repeatedResponseHeadersAreJoinedWithCommas() async throws {
        let response = try await HttpBin.client().get("response-headers")
            .queryItem(name: "X-Multi", "a").queryItem(name: "X-Multi", "b")
            .perform()
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Multi") == "a, b")
    }

    @Test func refusedConnectionFailsAsCannotConnectToHost() async throws {
        // Without retries: by default AsyncHTTPClient retries a refused connection until its connect timeout.
        var configuration = AsyncHTTPClientTransport.defaultConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ApiClient(asyncHTTPClient: transport, baseUrl: try #require(URL(string: "http://127.0.0.1:9")))
        let error = await #expect(throws: RequestError.self) { try await client.get("x").perform() }
        guard case .transport(let request, _) = error else {
            Issue.record("expected .transport, got \(String(describing: error))")
            return
        }
        #expect(request.url?.absoluteString == "http://127.0.0.1:9/x")
        #expect((error?.underlyingError as? URLError)?.code == .cannotConnectToHost)
        try await transport.shutdown()
    }

    /// Nothing in this process bootstraps a tracer: AsyncHTTPClient's default would be the no-op
    /// one, which still starts a span per request; the transport's default has none.
    @Test func defaultConfigurationHasNoTracerWhenNoneWasBootstrapped() async throws {
        #expect(AsyncHTTPClientTransport.defaultConfiguration.tracing.tracer == nil)
        let transport = AsyncHTTPClientTransport()
        let client = ApiClient(asyncHTTPClient: transport, baseUrl: try HttpBin.url())
        #expect(try await client.get("get").perform().httpResponse.statusCode == 200)
        try await transport.shutdown()
    }

    @Test func ownTransportShutsDownOnceAndThenRefusesRequests() async throws {
        let transport = AsyncHTTPClientTransport()
        let client = ApiClient(asyncHTTPClient: transport, baseUrl: try HttpBin.url())
        #expect(try await client.get("get").perform().httpResponse.statusCode == 200)
        try await transport.shutdown()
        try await transport.shutdown()
        await #expect(throws: RequestError.self) { try await client.get("get").perform() }
    }
}
#endif
