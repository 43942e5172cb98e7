import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// A request and an endpoint share one declaration of their chained calls (`CallDescribing`):
/// a helper written once against it, and a type of the user's own that adopts it, get them all,
/// through the public API only.
@Suite struct CallDescribingTests {
    /// Answers 200 with `{"id": 7}` (418 for `/teapot`), and keeps every request it receives.
    final class Recorder: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var received: [TransportRequest] = []
        var requests: [TransportRequest] { lock.withLock { received } }

        func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
            lock.withLock { received.append(request) }
            let status = request.url?.path == "/teapot" ? 418 : 200
            return TransportResponse(statusCode: status, body: ResponseBody(Data(#"{"id":7}"#.utf8)))
        }
    }

    struct Thing: Decodable, Equatable, Sendable { let id: Int }

    /// Keeps the names of the middlewares a request went through, in order.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        var all: [String] { lock.withLock { names } }
        func middleware(_ name: String) -> Middleware {
            Middleware(name) { request, next in
                self.lock.withLock { self.names.append(name) }
                return try await next(request)
            }
        }
    }

    /// A type of the user's own: a named call that chains like a request.
    struct NamedCall: CallDescribing {
        var endpoint: Endpoint<Data>
        let label: String
    }

    static func client(_ transport: Recorder) -> ApiClient {
        ApiClient(transport: transport, baseUrl: URL(string: "https://api.example.com")!)
            .authentication(.bearer("secret"))
    }

    @Test func oneHelperServesARequestAndAnEndpointAlike() async throws {
        let transport = Recorder()
        let client = Self.client(transport)
        let seen = Seen()
        func mirrored<Call: CallDescribing>(_ call: Call) -> Call {
            call.middleware(seen.middleware("mirror")).authenticatingAnyOrigin().header("X-Mirror", "1")
        }
        let elsewhere = URL(string: "https://mirror.example.org/things/7")!

        let viaRequest: Thing = try await mirrored(client.request(url: elsewhere)).perform()
        let viaEndpoint = try await client.perform(mirrored(Endpoint<Thing>(.get, url: elsewhere)))

        #expect(viaRequest == Thing(id: 7))
        #expect(viaEndpoint == Thing(id: 7))
        #expect(seen.all == ["mirror", "mirror"])
        #expect(transport.requests.count == 2)
        for request in transport.requests {
            #expect(request.url?.absoluteString == "https://mirror.example.org/things/7")
            #expect(request.headerFields["Authorization"] == "Bearer secret") // another origin, opted in
            #expect(request.headerFields["X-Mirror"] == "1")
        }
    }

    @Test func withoutTheOptInAnotherOriginGetsNoCredentials() async throws {
        let transport = Recorder()
        let elsewhere = URL(string: "https://mirror.example.org/things/7")!
        _ = try await Self.client(transport).perform(Endpoint<Thing>(.get, url: elsewhere))
        #expect(transport.requests.count == 1)
        #expect(transport.requests[0].headerFields["Authorization"] == nil)
    }

    @Test func aTypeOfTheUsersOwnGetsTheChainedCallsAndKeepsItsOwnFields() async throws {
        let transport = Recorder()
        let call = NamedCall(endpoint: Endpoint<Data>(.get, "teapot"), label: "brew")
            .queryItem(name: "size", "large")
            .validator(.httpStatusCodeRange(200...499))

        #expect(call.label == "brew")
        let response: Response<Data> = try await Self.client(transport).perform(call.endpoint.decoding { response, _ in response })
        #expect(response.statusCode == 418) // accepted by the chained validator
        #expect(transport.requests.map { $0.url?.absoluteString } == ["https://api.example.com/teapot?size=large"])
    }

    @Test func aValidatorWithTheSameIdReplacesTheEarlierOneOnBoth() async throws {
        let transport = Recorder()
        let client = Self.client(transport)
        let refuse = ResponseValidator(id: "status") { _ in throw CocoaError(.featureUnsupported) }
        let accept = ResponseValidator(id: "status") { _ in }

        let viaRequest: Response<Data> = try await client.get("things").validator(refuse).validator(accept).perform()
        let viaEndpoint = try await client.perform(Endpoint<Thing>(.get, "things").validator(refuse).validator(accept))

        #expect(viaRequest.statusCode == 200)
        #expect(viaEndpoint == Thing(id: 7))
    }

    @Test func writingARequestsEndpointReplacesTheCallAndKeepsTheClient() async throws {
        let transport = Recorder()
        var request = Self.client(transport).get("first")
        request.endpoint = Endpoint<Data>(.delete, "second").header("X-Kept", "yes")
        try await request.perform()

        #expect(transport.requests.count == 1)
        #expect(transport.requests[0].method == .delete)
        #expect(transport.requests[0].url?.absoluteString == "https://api.example.com/second")
        #expect(transport.requests[0].headerFields["X-Kept"] == "yes")
        #expect(transport.requests[0].headerFields["Authorization"] == "Bearer secret") // the client's
    }
}
