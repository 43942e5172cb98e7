#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// `RequestBody.stream` over a real socket, on every engine: the bytes arrive whole, and a body
/// that can be sent once is not sent again after a redirect that keeps it.
@Suite struct StreamedBodyWireTests {
    struct Received: Decodable, Equatable { let received: Int }

    /// `count` chunks of 64 KiB, each made when it is asked for.
    static func body(chunks count: Int, length: Int64?, repeatable: Bool) -> StreamedBody {
        StreamedBody(length: length, repeatable: repeatable) {
            let remaining = Shared(count)
            return ResponseBody(AsyncStream<Data> {
                remaining.take() ? Data(repeating: UInt8(ascii: "s"), count: 64 << 10) : nil
            })
        }
    }

    final class Shared: @unchecked Sendable {
        private let lock = NSLock()
        private var count: Int
        init(_ count: Int) { self.count = count }
        func take() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            count -= 1
            return count >= 0
        }
    }

    static func send(_ body: StreamedBody, to url: URL) -> RequestBuilder {
        ApiClient(transport: WireTransport.shared, baseUrl: url).post()
            .modifier(RequestModifier(editing: { $0.setBody(.stream(body)) }))
    }

    @Test(arguments: [nil, Int64(40 * 64 << 10)])
    func everyByteOfAStreamedBodyArrives(length: Int64?) async throws {
        let received: Received = try await Self.send(Self.body(chunks: 40, length: length, repeatable: false), to: try TestServer.url("/sink")).perform()
        #expect(received == Received(received: 40 * 64 << 10))
    }

    /// A producer that stops yielding without ending: the idle timeout ends the call, as it ends
    /// a server that stops answering (over URLSession the body is gathered before anything is
    /// sent; the wait for the next chunk once outlived every timeout).
    /// The producer's stream is then ended too: nothing waits for its next chunk after the call.
    @Test(.timeLimit(.minutes(1))) func aProducerThatStallsEndsInTheIdleTimeout() async throws {
        let (terminated, termination) = AsyncStream<Void>.makeStream()
        let stalled = StreamedBody(length: nil, repeatable: false) {
            ResponseBody(AsyncStream<Data> { continuation in
                continuation.onTermination = { _ in termination.finish() }
                continuation.yield(Data(repeating: UInt8(ascii: "s"), count: 1024))
                // Never finished: the continuation is kept by the stream until it is cancelled.
            })
        }
        let error = try await #require(throws: RequestError.self) {
            try await Self.send(stalled, to: try TestServer.url("/sink")).timeoutInterval(1).perform()
        }
        guard case .transport(_, let cause) = error else {
            Issue.record("expected .transport, got \(error)")
            return
        }
        #expect((cause as? URLError)?.code == .timedOut)
        // Ends when the producer's stream is terminated (within the time limit, or the test fails).
        for await _ in terminated {}
    }

    /// A short stream (a few large chunks, all handed to the engine before any is written: see
    /// `HTTPClient.Body.chunks`) that the server cuts mid-upload fails the call every time: the
    /// writes still pending when the producer ended are not taken for a body sent whole.
    @Test func aShortStreamCutMidUploadFailsTheCallEveryTime() async throws {
        // A transport of its own, so that no other test's connection to the host delays it.
        let client = ApiClient(transport: WireTransport.fresh(), baseUrl: try TestServer.url("/faults/"))
            .header("Connection", "close").timeoutInterval(5)
        for _ in 0..<10 {
            let body = StreamedBody(length: nil, repeatable: false) {
                let remaining = Shared(3)
                return ResponseBody(AsyncStream<Data> { remaining.take() ? Data(count: 1 << 20) : nil })
            }
            let error = await #expect(throws: RequestError.self) {
                try await client.post("cut-upload").modifier(RequestModifier(editing: { $0.setBody(.stream(body)) })).perform()
            }
            #expect(error?.stage == "transport")
            #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost, "\(String(reflecting: error))")
        }
    }

    /// A 307 to `/sink`, answered once the body was read whole.
    static func redirectAfterTheBody() throws -> URL {
        try TestServer.url("/redirect-after-body?status=307&to=/sink")
    }

    @Test func aBodyThatCanBeSentOnceFailsARedirectThatKeepsIt() async throws {
        let error = try await #require(throws: RequestError.self) {
            try await Self.send(Self.body(chunks: 2, length: nil, repeatable: false), to: try Self.redirectAfterTheBody()).perform()
        }
        guard case .transport(_, let cause) = error else {
            Issue.record("expected .transport, got \(error)")
            return
        }
        #expect((cause as? ApiClientError)?.code == .streamedBodyUnreadable)
    }

    @Test func aRepeatableBodyFollowsARedirectThatKeepsIt() async throws {
        let received: Received = try await Self.send(Self.body(chunks: 2, length: 2 * 64 << 10, repeatable: true), to: try Self.redirectAfterTheBody())
            .perform()
        #expect(received == Received(received: 2 * 64 << 10))
    }

    /// httpbin answers its 307 before it reads the body. The exchange must not wait for the body
    /// to be taken: it once waited on AsyncHTTPClient until httpbin closed the connection, about
    /// 60 s, a wait that ends here in the 15 s idle timeout (`URLError(.timedOut)`). The call
    /// ends in the refusal to send the body again, or, when the server closes the connection
    /// with the body unread, in a lost connection (about one call in ten under load).
    @Test func aRedirectAnsweredBeforeTheBodyIsReadEndsWithoutWaitingForIt() async throws {
        let target = try TestServer.url("/sink").absoluteString
        let url = try HttpBin.url("/redirect-to?status_code=307&url=" + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        let error = try await #require(throws: RequestError.self) {
            try await Self.send(Self.body(chunks: 2, length: nil, repeatable: false), to: url).timeoutInterval(15).perform()
        }
        guard case .transport(_, let cause) = error else {
            Issue.record("expected .transport, got \(error)")
            return
        }
        let refused = (cause as? ApiClientError)?.code == .streamedBodyUnreadable
        #expect(refused || (cause as? URLError)?.code == .networkConnectionLost, "\(String(reflecting: cause))")
    }
}
#endif
