#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// `serverSentEvents(maxReconnects:)` against the test server's `/transfers/events/<key>`, a
/// stream that drops after a few events and goes on after `Last-Event-ID`. The streams wait an
/// hour between connections unless they follow the server's `retry:` (10 ms), so the time limit
/// fails a stream that ignores it.
@Suite(.timeLimit(.minutes(1))) struct ServerSentEventReconnectWireTests {
    private struct Stats: Decodable {
        var lastEventIds: [String?]
        var accepts: [String?]
        var authorizations: [String?]
    }

    private func stats(_ key: String) async throws -> Stats {
        try await TestServer.client("/transfers/").get("events-stats/\(key)").perform()
    }

    private func event(_ number: Int, retry: Int = 10) -> ServerSentEventStream.Element {
        .event(ServerSentEvent(data: "event \(number)", lastEventId: "\(number)", retry: retry))
    }

    private func collect(_ stream: ServerSentEventStream) async throws -> [ServerSentEventStream.Element] {
        var elements: [ServerSentEventStream.Element] = []
        for try await element in stream { elements.append(element) }
        return elements
    }

    @Test func aDroppedStreamReconnectsWithTheLastEventIdUntilTheServerAnswers204() async throws {
        let key = UUID().uuidString
        let elements = try await collect(TestServer.client("/transfers/").get("events/\(key)").serverSentEvents(maxReconnects: 5, reconnectionTime: 3600))
        #expect(elements == [event(1), event(2), .reconnected(lastEventId: "2"), event(3), event(4),
                             .reconnected(lastEventId: "4"), event(5), event(6)])
        let seen = try await stats(key)
        #expect(seen.lastEventIds == [nil, "2", "4", "6"])
        #expect(seen.accepts == Array(repeating: "text/event-stream", count: 4))
    }

    @Test func eachConnectionGoesThroughTheClientsAuthentication() async throws {
        let key = UUID().uuidString
        let tokens = Trail()
        let client = try TestServer.client("/transfers/").authentication {
            tokens.add("token")
            return .bearer("token-\(tokens.all.count)")
        }
        _ = try await collect(client.get("events/\(key)").queryItems(["total": "4"]).serverSentEvents(maxReconnects: 5, reconnectionTime: 3600))
        #expect(tokens.all.count == 3)
    }

    @Test func aTokenRefusedOnReconnectionIsRenewedThroughTheChain() async throws {
        let key = UUID().uuidString
        let refreshes = Trail()
        let client = try TestServer.client("/transfers/").authentication(
            token: { "token-\(refreshes.all.count + 1)" },
            refresh: { expired in
                refreshes.add(expired)
                return "token-\(refreshes.all.count + 1)"
            })
        let elements = try await collect(client.get("events/\(key)").queryItems(["total": "4", "auth": "1"])
            .serverSentEvents(maxReconnects: 5, reconnectionTime: 3600))
        #expect(elements == [event(1), event(2), .reconnected(lastEventId: "2"), event(3), event(4)])
        #expect(refreshes.all == ["token-1", "token-2"])
        let seen = try await stats(key)
        #expect(seen.authorizations == ["Bearer token-1", "Bearer token-1", "Bearer token-2", "Bearer token-2", "Bearer token-3"])
        #expect(seen.lastEventIds == [nil, "2", "2", "4", "4"])
    }

    @Test func theLimitEndsTheStreamAfterItsLastReconnect() async throws {
        let key = UUID().uuidString
        let elements = try await collect(TestServer.client("/transfers/").get("events/\(key)").serverSentEvents(maxReconnects: 1, reconnectionTime: 3600))
        #expect(elements == [event(1), event(2), .reconnected(lastEventId: "2"), event(3), event(4)])
        #expect(try await stats(key).lastEventIds == [nil, "2"])
    }

    @Test func aBlockCutBeforeItsEmptyLineDoesNotCount() async throws {
        let key = UUID().uuidString
        let elements = try await collect(TestServer.client("/transfers/").get("events/\(key)")
            .queryItems(["total": "4", "drop": "partial"]).serverSentEvents(maxReconnects: 5, reconnectionTime: 3600))
        #expect(elements == [event(1), event(2), .reconnected(lastEventId: "2"), event(3), event(4)])
        #expect(try await stats(key).lastEventIds == [nil, "2", "4"])
    }

    @Test func a204EndsTheStreamWithoutAnEvent() async throws {
        let key = UUID().uuidString
        let elements = try await collect(TestServer.client("/transfers/").get("events/\(key)")
            .queryItems(["total": "0"]).serverSentEvents(maxReconnects: 5, reconnectionTime: 3600))
        #expect(elements == [])
        #expect(try await stats(key).lastEventIds == [nil])
    }

    @Test func anErrorStatusFailsWithoutReconnecting() async throws {
        let stream = try TestServer.client("/transfers/").get("events-status/503").serverSentEvents(maxReconnects: 5)
        let error = await #expect(throws: RequestError.self) { _ = try await collect(stream) }
        guard case .validate(_, let data, let response, let cause) = error else {
            Issue.record("expected .validate, got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == 503)
        #expect(String(decoding: data, as: UTF8.self) == #"{"detail": "no stream here"}"#)
        #expect(cause as? ApiClientError == ApiClientError(.unacceptableStatusCode, message: "status code 503 is outside 200..<201", statusCode: 503, acceptableStatusCodes: 200..<201))
    }

    /// A 2xx other than 200 fails at once: its body is the live stream, which is not read as an
    /// error document (the server holds it open, sending nothing, for longer than the time limit).
    @Test func aLiveStreamWithAStatusOtherThan200FailsAtOnceWithoutReadingIt() async throws {
        let stream = try TestServer.client("/transfers/").get("events-live/201").serverSentEvents(maxReconnects: 5)
        let error = await #expect(throws: RequestError.self) { _ = try await collect(stream) }
        #expect(error?.stage == "validate")
        #expect(error?.validationError as? ApiClientError == ApiClientError(.unacceptableStatusCode, message: "status code 201 is outside 200..<201", statusCode: 201, acceptableStatusCodes: 200..<201))
        #expect(error?.responseBody == Data())
    }

    @Test func aWrongContentTypeFailsWithoutReconnecting() async throws {
        let stream = try TestServer.client("/transfers/").get("events-wrong-type").serverSentEvents(maxReconnects: 5)
        let error = await #expect(throws: RequestError.self) { _ = try await collect(stream) }
        #expect(error?.stage == "validate")
        #expect(error?.validationError as? ApiClientError == ApiClientError(
            .unacceptableContentType, message: "content type text/plain is not one of text/event-stream",
            contentType: "text/plain", acceptableContentTypes: ["text/event-stream"]))
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingDuringTheReconnectionWaitStopsAtOnce() async throws {
        let key = UUID().uuidString
        // The server asks for 10 minutes between connections.
        let stream = try TestServer.client("/transfers/").get("events/\(key)")
            .queryItems(["per": "1", "retry": "600000"]).serverSentEvents(maxReconnects: 5)
        let (received, receiving) = AsyncStream<ServerSentEventStream.Element>.makeStream()
        let task = Task {
            for try await element in stream { receiving.yield(element) }
        }
        for await element in received {
            #expect(element == event(1, retry: 600_000))
            break
        }
        task.cancel()
        let error = await #expect(throws: RequestError.self) { try await task.value }
        #expect(error?.isCancellation == true)
        #expect(try await stats(key).lastEventIds == [nil])
    }
}
#endif
