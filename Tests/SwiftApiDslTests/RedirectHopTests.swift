import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// A redirect hop is the request the call sent, edited where RFC 9110 says (URL, method, the
/// fields a new origin must not see, the body a changed method drops): every other field of
/// `TransportRequest` travels with it, without the redirect code naming it. What belongs to the
/// call rather than the request (its id, how it takes the body) is the same for every hop.
@Suite struct RedirectHopTests {
    /// Answers `/a` with `status` to `/b`, and `/b` with 200; keeps every request it receives.
    final class Hops: HTTPTransport, @unchecked Sendable {
        let status: Int
        private let lock = NSLock()
        private var received: [TransportRequest] = []
        private var streamed: [Bool] = []
        init(status: Int) { self.status = status }

        var requests: [TransportRequest] { lock.withLock { received } }
        /// Each exchange's `takesBodyAsItArrives`, as its control gave it.
        var takesBodyAsItArrives: [Bool] { lock.withLock { streamed } }

        func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
            lock.withLock { received.append(request); streamed.append(control.takesBodyAsItArrives) }
            if request.url?.path == "/a" { return TransportResponse(statusCode: status, headerFields: ["Location": "/b"]) }
            return TransportResponse(statusCode: 200, body: ResponseBody(Data("done".utf8)))
        }
    }

    static let tls = TLSSettings(pins: ["api.example.com": ["pin-a"]])

    @Test func everyFieldTheRuleDoesNotEditTravelsWithTheHop() async throws {
        let hops = Hops(status: 307)
        let ids = Locked<[Int?]>([])
        let client = ApiClient(transport: hops, baseUrl: URL(string: "https://api.example.com")!)
            .observer { _ in } // gives the call a request ID
            .middleware(Middleware("ids", seeingCall: { request, next, call in
                ids.withLock { $0.append(call.requestID) }
                return try await next(request)
            }))
        let response = try await client.post("a")
            .body(Data("payload".utf8))
            .name("createThing")
            .tls(Self.tls)
            .timeoutInterval(7)
            .allowsCellularAccess(false)
            .header("X-Trace", "t-1")
            .stream()
        for try await _ in response.body {}

        let hop = hops.requests[1]
        #expect(hops.requests.count == 2)
        #expect(hop.url?.absoluteString == "https://api.example.com/b")
        #expect(hop.method == .post)
        #expect(hop.httpBody == Data("payload".utf8))
        #expect(hop.headerFields["X-Trace"] == "t-1")
        #expect(hop.name == "createThing")
        #expect(hop.tls == Self.tls)
        let seen = ids.withLock { $0 }
        #expect(seen.count == 2 && seen[0] != nil && seen[0] == seen[1])
        #expect(hops.takesBodyAsItArrives == [true, true])
        #expect(hop.timeoutInterval == 7)
        #expect(hop.urlRequest.allowsCellularAccess == false) // a Foundation-only property
    }

    @Test func aMethodTheRedirectChangesDropsTheBodyAndKeepsTheRest() async throws {
        let hops = Hops(status: 303)
        let client = ApiClient(transport: hops, baseUrl: URL(string: "https://api.example.com")!)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hop-\(UUID().uuidString)")
        try Data("file body".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await client.put("a").uploadFile(file).name("upload").tls(Self.tls).perform()

        let hop = hops.requests[1]
        #expect(hop.method == .get)
        #expect(hop.body == nil)
        #expect(hop.httpBody == nil)
        #expect(hop.name == "upload")
        #expect(hop.tls == Self.tls)
        #expect(hops.takesBodyAsItArrives == [false, false])
    }
}
