#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Middlewares of the kinds users write, over a real socket: a signature over the body, a
/// circuit breaker, a response served without the network, and what each request on the wire is.
@Suite struct MiddlewareWireTests {
    /// FNV-1a in hex, fed chunk by chunk: a stand-in for an HMAC or SHA-256, enough to check what was signed.
    struct Digest {
        private var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func update(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        var hex: String { String(hash, radix: 16) }
    }

    /// The digest of `text`, then of `body`.
    static func digest(_ text: String, _ body: Data = Data()) -> String {
        var digest = Digest()
        digest.update(text.utf8)
        digest.update(body)
        return digest.hex
    }

    /// Signs method, path and body into `X-Signature`, reading the body as the transport sends
    /// it (in memory, a file, a multipart form) 64 KiB at a time.
    static let signing = Middleware("signing") { request, next in
        var digest = Digest()
        digest.update("\(request.method.rawValue) \(request.url?.path ?? "")\n".utf8)
        let body = request.makeBodyReader(chunkSize: 64 << 10)
        while let chunk = try body.next() { digest.update(chunk) }
        var signed = request
        signed.headerFields.set(digest.hex, for: "X-Signature")
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

    @Test func aSignatureOverAFileUploadIsOfTheBytesTheServerReceived() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("upload.txt")
        let text = String(repeating: "0123456789abcdef", count: 20_000) // 320 kB: five chunks
        try Data(text.utf8).write(to: file)
        let echo = try await HttpBin.client().middleware(Self.signing)
            .put("anything/upload").uploadFile(file, contentType: "text/plain").perform(as: Echo.self)
        #expect(echo.data == text)
        #expect(echo.header("X-Signature") == Self.digest("PUT /anything/upload\n", Data((echo.data ?? "").utf8)))
    }

    /// httpbin parses a form and keeps none of its bytes: the test server's `/echo-body` answers
    /// them as it received them, with the signature. Above 8 MiB, URLSession sends the form from
    /// a file it writes first.
    @Test(arguments: [13, 9 << 20])
    func aSignatureOverAMultipartFormIsOfTheBytesTheServerReceived(fileSize: Int) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("scan.bin")
        let contents = Data((0..<fileSize).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try contents.write(to: file)
        let response = try await TestServer.client().middleware(Self.signing).post("echo-body")
            .multipartFormData(boundary: "fixed") {
                TextField(name: "type", value: "scan")
                FileField(name: "doc", fileURL: file, mimeType: "application/octet-stream")
            }
            .perform()
        let expected = Data("--fixed\r\nContent-Disposition: form-data; name=\"type\"\r\n\r\nscan\r\n".utf8)
            + Data("--fixed\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"scan.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
            + contents + Data("\r\n--fixed--\r\n".utf8)
        #expect(response.body == expected)
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Signature") == Self.digest("POST /echo-body\n", response.body))
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

    /// Over a real socket, each hop of a 307 reaches the chain as the request edited: its own URL,
    /// and the fields the redirect rule does not touch as the call set them.
    @Test func eachRedirectHopKeepsTheCallsNameRequestIdAndBody() async throws {
        let hops = Trail()
        let recorder = Middleware("recorder", seeingCall: { request, next, call in
            let body = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
            hops.add("\(request.method.rawValue) \(request.url?.path ?? "") \(request.name ?? "-") \(call.requestID != nil) \(body)")
            return try await next(request)
        })
        let client = try HttpBin.client().observer { _ in }.middleware(recorder)
        let response = try await client.post("redirect-to")
            .queryItems(["url": "/anything/after", "status_code": "307"])
            .body(Data("payload".utf8), contentType: "text/plain")
            .name("createThing")
            .perform()
        #expect(response.statusCode == 200)
        #expect(hops.all == ["POST /redirect-to createThing true payload", "POST /anything/after createThing true payload"])
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
#endif
