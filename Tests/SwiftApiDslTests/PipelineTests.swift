import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

/// The pipeline's rules, checked on a recording transport.
@Suite struct PipelineTests {
    struct Payload: Codable, Equatable { var id: Int }

    /// A status a middleware makes up is checked as the wire's is: one HTTP cannot have fails
    /// the call as a bad server response, never traps when the response is built.
    @Test(arguments: [0, -1, 99, 1000, Int.max])
    func aMiddlewaresImpossibleStatusFailsAsABadResponse(status: Int) async throws {
        let madeUp = Middleware("made-up") { _, _ in TransportResponse(statusCode: status, body: ResponseBody(Data("x".utf8))) }
        let error = await #expect(throws: RequestError.self) {
            try await ApiClient.recording(RecordingTransport()).middleware(madeUp).get("a").perform()
        }
        #expect((error?.underlyingError as? URLError)?.code == .badServerResponse)
        let fine = try await ApiClient.recording(RecordingTransport())
            .middleware(Middleware("made-up") { _, _ in TransportResponse(statusCode: 999, body: ResponseBody(Data("x".utf8))) })
            .get("a").perform()
        #expect(fine.httpResponse.statusCode == 999)
    }

    @Test func lastBodyWins() async throws {
        let transport = RecordingTransport()
        let client = ApiClient.recording(transport)
        try await client.post("a", body: Payload(id: 1)).multipartFormData { TextField(name: "x", value: "1") }.perform()
        try await client.post("b").multipartFormData { TextField(name: "x", value: "1") }.modifier { $0.httpBody = Data("raw".utf8) }.perform()
        try await client.post("c").body(Data("first".utf8)).jsonBody(Payload(id: 2)).perform()
        let requests = transport.requests
        #expect(requests[0].urlRequest.httpBody == nil)
        if case .multipart(let form) = requests[0].body { #expect(form.parts.map(\.name) == ["x"]) } else { Issue.record("no multipart body") }
        #expect(requests[1].body == nil)
        #expect(requests[1].urlRequest.httpBody == Data("raw".utf8))
        #expect(requests[2].urlRequest.httpBody == Data(#"{"id":2}"#.utf8))
        #expect(requests[2].urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func modifiersSeeTheBodyGivenAtTheStart() async throws {
        let transport = RecordingTransport()
        let seen = Locked<Data?>(nil)
        try await ApiClient.recording(transport)
            .authentication { request in seen.withLock { $0 = request.httpBody } }
            .put("x", body: Payload(id: 9))
            .perform()
        #expect(seen.withLock { $0 } == Data(#"{"id":9}"#.utf8))
    }

    @Test func transportRequestErrorsPassUnchangedAndOthersAreWrapped() async throws {
        let marker = RequestError.validate(URLRequest(url: exampleBase), data: Data("x".utf8),
                                           response: HTTPURLResponse(url: exampleBase, statusCode: 418, httpVersion: nil, headerFields: nil)!,
                                           error: URLError(.cannotParseResponse))
        let passing = ApiClient.recording(RecordingTransport { _ in throw marker })
        let passed = await #expect(throws: RequestError.self) { try await passing.get("x").perform() }
        #expect(passed?.httpResponse?.statusCode == 418)
        let wrapping = ApiClient.recording(RecordingTransport { _ in throw URLError(.networkConnectionLost) })
        let wrapped = await #expect(throws: RequestError.self) { try await wrapping.get("x").perform() }
        guard case .transport(let request, let source) = wrapped else {
            Issue.record("expected .transport, got \(String(describing: wrapped))")
            return
        }
        #expect(request.url?.absoluteString == "https://api.example.com/v1/x")
        #expect((source as? URLError)?.code == .networkConnectionLost)
        #expect(wrapped?.localizedDescription == "RequestError.transport: GET https://api.example.com/v1/x failed: URLError -1005 (network connection lost)")
    }

    @Test func decodingChoices() async throws {
        let json = ApiClient.recording(RecordingTransport { _ in (Data(#"{"id":3}"#.utf8), 200, [:]) })
        let empty = ApiClient.recording(RecordingTransport { _ in (Data(), 204, [:]) })
        let payload: Payload = try await json.get().perform()
        let data: Data = try await json.get().perform()
        let absent: Payload? = try await empty.get().perform()
        let present: Payload? = try await json.get().perform()
        let ignored: EmptyResponse = try await empty.get().perform()
        #expect(payload == Payload(id: 3))
        #expect(data == Data(#"{"id":3}"#.utf8))
        #expect(absent == nil)
        #expect(present == Payload(id: 3))
        #expect(ignored == EmptyResponse())
        let error = await #expect(throws: RequestError.self) { let _: Payload = try await empty.get().perform() }
        guard case .fatal(.decoding(let type, _, let response, _)) = error else {
            Issue.record("expected .fatal(.decoding), got \(String(describing: error))")
            return
        }
        #expect(type == "Payload")
        #expect(response.httpResponse.statusCode == 204)
    }

    @Test func requestDecoderOverridesTheClients() async throws {
        struct Snake: Decodable, Equatable { var firstName: String }
        let transport = RecordingTransport { _ in (Data(#"{"first_name":"Ada"}"#.utf8), 200, [:]) }
        let snake = JSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        let viaClient: Snake = try await ApiClient(transport: transport, baseUrl: exampleBase, jsonDecoder: snake).get().perform()
        #expect(viaClient == Snake(firstName: "Ada"))
        let viaRequest: Response<Snake> = try await ApiClient.recording(transport).get().perform(jsonDecoder: snake)
        #expect(viaRequest.body == Snake(firstName: "Ada"))
    }

    @Test func acceptableContentTypes() async throws {
        func status(_ contentType: String?, body: String = "{}", accept: [String]) async -> String {
            let headers = contentType.map { ["Content-Type": $0] } ?? [:]
            let client = ApiClient.recording(RecordingTransport { _ in (Data(body.utf8), 200, headers) }).acceptableContentTypes(accept)
            do {
                try await client.get().perform()
                return "ok"
            } catch {
                return String(describing: error.asRequestError.validationError ?? error)
            }
        }
        #expect(await status("application/json; charset=utf-8", accept: ["application/json"]) == "ok")
        #expect(await status("Application/JSON", accept: ["application/json"]) == "ok")
        #expect(await status("text/plain", accept: ["text/*"]) == "ok")
        #expect(await status("image/png", accept: ["*/*"]) == "ok")
        #expect(await status(nil, body: "", accept: ["application/json"]) == "ok")
        #expect(await status("text/html", accept: ["application/json", "text/plain"]) == "content type text/html is not one of application/json, text/plain")
        #expect(await status(nil, accept: ["application/json"]) == "content type (none) is not one of application/json")
    }

    @Test func statusCodeRangeDefaultsTo2xx() async throws {
        for (code, passes) in [(199, false), (200, true), (299, true), (300, false), (500, false)] {
            let client = ApiClient.recording(RecordingTransport { _ in (Data(), code, [:]) })
            let passed = (try? await client.httpStatusCodeRange().get().perform()) != nil
            #expect(passed == passes, "status \(code)")
        }
        let custom = ApiClient.recording(RecordingTransport { _ in (Data(), 404, [:]) })
        #expect((try? await custom.get().modifier(.accept("x")).validator(.httpStatusCodeRange(200..<500)).perform()) != nil)
    }

    @Test func builderIsAValueThatCanBePerformedTwice() async throws {
        let transport = RecordingTransport()
        let builder = ApiClient.recording(transport).get("again").header("X-N", "1")
        try await builder.perform()
        try await builder.header("X-N", "2").perform()
        try await builder.perform()
        #expect(transport.requests.map { $0.urlRequest.value(forHTTPHeaderField: "X-N") } == ["1", "2", "1"])
    }

    @Test func validatorsCanBeSwitchedOffAndOnByTheClientsSwitch() async throws {
        let transport = RecordingTransport { _ in (Data(), 500, [:]) }
        let isOn = Locked(false)
        let client = ApiClient(transport: transport, baseUrl: exampleBase).httpStatusCodeRange()
            .validators(enabledWhen: { isOn.withLock { $0 } })
        #expect(try await client.get().perform().statusCode == 500)
        // Asked at each request: switched on, the same client rejects the 500.
        isOn.withLock { $0 = true }
        let error = await #expect(throws: RequestError.self) { try await client.get().perform() }
        #expect(error?.statusCode == 500)
    }
}

@Suite struct RedirectPipelineTests {
    /// Answers the first request with `status` to /next, then 200.
    static func redirecting(_ status: Int) -> RecordingTransport {
        RecordingTransport { request in
            request.urlRequest.url?.path == "/v1/next" ? (Data(), 200, [:]) : (Data(), status, ["Location": "/v1/next"])
        }
    }

    @Test(arguments: [(301, "PUT", true), (302, "PUT", true), (307, "POST", true), (308, "PUT", true), (301, "POST", false), (303, "PUT", false)])
    func streamedBodyFollowsTheMethod(status: Int, method: String, kept: Bool) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("x".utf8).write(to: file)
        let transport = Self.redirecting(status)
        try await ApiClient.recording(transport).request(HttpMethod(method), "start").uploadFile(file).perform()
        let second = try #require(transport.requests.last)
        #expect(second.urlRequest.url?.path == "/v1/next")
        #expect(second.body == (kept ? .file(file) : nil))
        #expect(second.urlRequest.httpMethod == (kept ? method : "GET"))
    }

    @Test func aRequestACustomPolicyReturnsIsCheckedBeforeItIsSent() async throws {
        let transport = Self.redirecting(302)
        let policy = RedirectPolicy.custom { _ in URLRequest(url: URL(string: "ftp://example.com/file")!) }
        let error = await #expect(throws: RequestError.self) {
            try await ApiClient.recording(transport).get("start").redirectPolicy(policy).perform()
        }
        guard case .transport(_, let cause)? = error else { Issue.record("expected .transport, got \(String(describing: error))"); return }
        #expect((cause as? ApiClientError)?.code == .invalidURL)
        #expect((cause as? ApiClientError)?.message == "the URL's scheme ftp is not http or https")
        #expect(transport.requests.count == 1)
    }
}

/// Only a middleware says where a response came from: what a transport sets is not believed.
@Suite struct ResponseSourceTests {
    /// Claims every answer came from a store.
    struct Boasting: HTTPTransport {
        func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
            var response = TransportResponse(statusCode: 200, body: ResponseBody(Data("x".utf8)))
            response.source = .stored
            return response
        }
    }

    @Test func aTransportCannotFakeTheSourceButAMiddlewareSetsIt() async throws {
        let client = ApiClient(transport: Boasting(), baseUrl: URL(string: "https://api.example.com")!)
        #expect(try await client.get("a").perform().source == .network)
        let marking = Middleware("marking") { request, next in
            var response = try await next(request)
            response.source = .revalidated
            return response
        }
        #expect(try await client.middleware(marking).get("a").perform().source == .revalidated)
    }
}
