import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// The transport of the "Writing a transport" article works as the article says: the pipeline
/// reads its body, and enforces the idle timeout and cancellation on it.
@Suite struct WrittenTransportTests {
    private func client(_ handler: @escaping @Sendable (URLRequest, InProcessTransport.Body.Continuation) async throws -> (Int, HeaderFields)) -> ApiClient {
        ApiClient(transport: InProcessTransport(handler: handler), baseUrl: URL(string: "https://api.example.com/v1")!)
    }

    @Test func bodyChunksAndHeaderFieldsReachTheCaller() async throws {
        let client = client { request, body in
            body.yield(Data("hel".utf8))
            body.yield(Data("lo ".utf8))
            body.yield(request.httpBody ?? Data())
            body.finish()
            return (201, ["Content-Type": "text/plain", "X-Multi": "a", "x-multi": "b"])
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("written-\(UUID().uuidString).txt")
        try Data("from disk".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let response = try await client.post("notes").uploadFile(file).perform()

        #expect(response.body == Data("hello from disk".utf8))
        #expect(response.statusCode == 201)
        #expect(response.httpResponse.value(forHTTPHeaderField: "content-type") == "text/plain")
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Multi") == "a, b")
    }

    @Test func aBodyThatStallsFailsWithTheIdleTimeout() async throws {
        let client = client { _, body in
            body.yield(Data("first".utf8))
            return (200, [:])                    // and nothing more, ever
        }
        let error = await #expect(throws: RequestError.self) { try await client.get("stalls").timeoutInterval(0.2).perform() }
        guard case .transport(let request, let source) = error else {
            Issue.record("expected .transport, got \(String(describing: error))")
            return
        }
        #expect(request.url?.absoluteString == "https://api.example.com/v1/stalls")
        #expect((source as? URLError)?.code == .timedOut)
    }

    @Test func cancellingTheCallerEndsAStalledBody() async throws {
        let started = AsyncStream<Void>.makeStream()
        let client = client { _, _ in
            started.continuation.yield()
            return (200, [:])
        }
        let call = Task { try await client.get("stalls").perform() }
        for await _ in started.stream { break }
        call.cancel()
        let result = await call.result
        guard case .failure(let error) = result else {
            Issue.record("the cancelled call succeeded: \(result)")
            return
        }
        #expect(error.asRequestError.isCancellation)
    }

    @Test func releasingAStreamedBodyUnreadEndsTheExchange() async throws {
        let ended = AsyncStream<Void>.makeStream()
        let client = client { _, body in
            body.onTermination = { _ in ended.continuation.yield() }
            body.yield(Data("first".utf8))
            return (200, [:])                    // and nothing more, ever
        }
        do {
            let response = try await client.get("stalls").stream()
            var iterator = response.body.makeAsyncIterator()
            #expect(try await iterator.next() == Data("first".utf8))
        }
        var ends = 0
        for await _ in ended.stream {
            ends += 1
            break
        }
        #expect(ends == 1)
    }

    @Test func theFoundationHeadIsMadeOnceAndOnlyOnDemand() async throws {
        let client = client { _, body in
            body.finish()
            return (200, ["Content-Type": "application/json", "ETag": "\"v1\""])
        }
        let response = try await client.get("head").perform()
        #expect(response.headerFields["etag"] == "\"v1\"")
        #expect(response.httpResponse === response.httpResponse)
        #expect(response.withBody(1).httpResponse === response.httpResponse)
        #expect(response.httpResponse.value(forHTTPHeaderField: "ETag") == "\"v1\"")
        #expect(response.httpResponse.url?.absoluteString == "https://api.example.com/v1/head")
    }

    @Test func aStatusHTTPCannotHaveFailsAsABadServerResponse() async throws {
        let client = client { _, body in
            body.finish()
            return (0, [:])
        }
        let error = await #expect(throws: RequestError.self) { try await client.get("odd").perform() }
        #expect((error?.underlyingError as? URLError)?.code == .badServerResponse)
    }

    @Test func headerFieldsIgnoreCaseAndKeepOrder() {
        var fields: HeaderFields = ["Cookie": "a=1"]
        fields.append("b=2", for: "cookie")
        fields.append("text/plain", for: "Content-Type")
        #expect(fields["COOKIE"] == "a=1, b=2")
        #expect(fields.values(for: "cookie") == ["a=1", "b=2"])
        #expect(fields.map(\.name) == ["Cookie", "cookie", "Content-Type"])
        #expect(fields["Content-Length"] == nil)
        #expect(fields.description == "Cookie: <redacted>\ncookie: <redacted>\nContent-Type: text/plain")
    }
}
