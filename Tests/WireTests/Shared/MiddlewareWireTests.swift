import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Middlewares of the kinds users write, over a real socket: a signature over the body, a
/// circuit breaker, a response served without the network, and what each request on the wire is.
@Suite struct MiddlewareWireTests {
    /// FNV-1a of `text` in hex: a stand-in for an HMAC, enough to check what was signed.
    static func digest(_ text: String) -> String {
        let hash = text.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// Signs method, path and body into `X-Signature`.
    static let signing = Middleware("signing") { request, next in
        var signed = request
        let payload = "\(request.method.rawValue) \(request.url?.path ?? "")\n" + String(decoding: request.httpBody ?? Data(), as: UTF8.self)
        signed.headerFields.set(digest(payload), for: "X-Signature")
        return try await next(signed)
    }

    /// A middleware that writes each request and response status it sees into `trail`.
    static func logging(_ name: String, into trail: Trail) -> Middleware {
        Middleware(name) { request, next in
            trail.add("\(name) \(request.method.rawValue) \(request.url?.path ?? "")")
            let response = try await next(request)
            trail.add("\(name) \(response.statusCode)")
            return response
        }
    }

    @Test func aSignatureOverTheBodyIsSentOnEachRequest() async throws {
        struct Note: Encodable, Sendable { let text: String }
        let client = try HttpBin.client().middleware(Self.signing)
        let echo = try await client.post("anything/notes", body: Note(text: "hi")).perform(as: Echo.self)
        #expect(echo.header("X-Signature") == Self.digest("POST /anything/notes\n{\"text\":\"hi\"}"))
    }

    @Test func clientMiddlewaresRunBeforeTheCallsAndEveryRedirectHopGoesThroughThem() async throws {
        let log = Trail()
        let client = try HttpBin.client().middleware(Self.logging("client", into: log))
        let response = try await client.get("redirect/2").middleware(Self.logging("call", into: log)).perform()
        #expect(response.statusCode == 200)
        #expect(log.all == [
            "client GET /redirect/2", "call GET /redirect/2", "call 302", "client 302",
            "client GET /relative-redirect/1", "call GET /relative-redirect/1", "call 302", "client 302",
            "client GET /get", "call GET /get", "call 200", "client 200",
        ])
    }

    @Test func aCircuitBreakerRefusesWithoutSendingOnceTheServerFailedTwice() async throws {
        struct CircuitOpen: Error, Equatable {}
        // Each request sent and each failure is a line.
        let sent = Trail(), failures = Trail()
        let breaker = Middleware("circuit breaker") { request, next in
            guard failures.all.count < 2 else { throw CircuitOpen() }
            sent.add(request.url?.path ?? "")
            let response = try await next(request)
            if response.statusCode >= 500 { failures.add("\(response.statusCode)") }
            return response
        }
        let client = try HttpBin.client().httpStatusCodeRange().middleware(breaker)
        for _ in 0..<2 {
            let error = await #expect(throws: RequestError.self) { try await client.get("status/503").perform() }
            #expect(error?.statusCode == 503)
        }
        let refused = await #expect(throws: RequestError.self) { try await client.get("get").perform() }
        guard case .transport(_, let cause)? = refused else { Issue.record("expected .transport, got \(String(describing: refused))"); return }
        #expect(cause as? CircuitOpen == CircuitOpen())
        #expect(sent.all == ["/status/503", "/status/503"])
    }

    @Test func aMiddlewareCanAnswerWithoutTheNetworkAndValidatorsAndDecodingStillRun() async throws {
        let stored = Middleware("stored answer") { request, next in
            guard request.url?.path == "/cached" else { return try await next(request) }
            return TransportResponse(statusCode: 200, headerFields: ["Content-Type": "application/json"],
                                     body: ResponseBody(Data(#"{"origin":"cache"}"#.utf8)))
        }
        struct Origin: Decodable, Equatable { let origin: String }
        let client = try HttpBin.client().httpStatusCodeRange().middleware(stored)
        #expect(try await client.get("cached").perform(as: Origin.self) == Origin(origin: "cache"))
        // What it does not answer goes to the server.
        #expect(try await client.get("get").perform().statusCode == 200)
        // Validators judge the answer it made.
        let teapot = Middleware("teapot") { _, _ in TransportResponse(statusCode: 418) }
        let error = await #expect(throws: RequestError.self) { try await client.get("get").middleware(teapot).perform() }
        #expect(error?.statusCode == 418)
    }

    @Test func aMiddlewareThatReadsTheBodyCanReplaceIt() async throws {
        let upper = Middleware("uppercase") { request, next in
            var response = try await next(request)
            var text = Data()
            for try await chunk in response.body { text.append(chunk) }
            response.body = ResponseBody(Data(String(decoding: text, as: UTF8.self).uppercased().utf8))
            return response
        }
        let body = try await HttpBin.client().get("base64/aGVsbG8=").middleware(upper).perform().body
        #expect(String(decoding: body, as: UTF8.self) == "HELLO")
    }
}
