import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// A reconnecting event stream on a mock: each connection is a call the mock answers, so the
/// rules can be pinned without a server.
@Suite struct MockServerSentEventStreamTests {
    private static let eventStream = ["Content-Type": "text/event-stream"]

    private func collect(_ stream: ServerSentEventStream) async throws -> [ServerSentEventStream.Element] {
        var elements: [ServerSentEventStream.Element] = []
        for try await element in stream { elements.append(element) }
        return elements
    }

    /// A mock whose answers are `answers` in turn, then 204.
    private func mock(_ answers: [@Sendable (URLRequest) -> Result<Response<Data>, RequestError>], observer: (@Sendable (RequestEvent) -> Void)? = nil) -> ApiClientMock {
        let client = observer.map { ApiClient(baseUrl: Fixtures.baseUrl).observer($0) } ?? ApiClient(baseUrl: Fixtures.baseUrl)
        let mock = client.mocked()
        let index = Locked(0)
        mock.resultProvider = { request in
            let next = index.withLock { index in
                defer { index += 1 }
                return index
            }
            return next < answers.count ? answers[next](request) : .response(request, statusCode: 204)
        }
        return mock
    }

    @Test func aLostConnectionBeforeTheHeadIsReconnectedToo() async throws {
        let mock = mock([
            { .response($0, body: Data("retry: 0\nid: a\ndata: 1\n\n".utf8), headers: Self.eventStream) },
            { .failure(.transport($0, URLError(.networkConnectionLost))) },
            { .response($0, body: Data("data: 2\n\n".utf8), headers: Self.eventStream) },
        ])
        let elements = try await collect(mock.get("feed").serverSentEvents(maxReconnects: 5))
        #expect(elements == [
            .event(ServerSentEvent(data: "1", lastEventId: "a", retry: 0)),
            .reconnected(lastEventId: "a"),
            .event(ServerSentEvent(data: "2", lastEventId: "a", retry: 0)),
        ])
        #expect(mock.recordedRequests.map { $0.header("Last-Event-ID") } == [nil, "a", "a", "a"])
    }

    @Test func theLastFailureIsThrownWhenNoReconnectionIsLeft() async throws {
        let mock = mock([
            { .response($0, body: Data("retry: 0\ndata: 1\n\n".utf8), headers: Self.eventStream) },
            { .failure(.transport($0, URLError(.networkConnectionLost))) },
        ])
        let stream = mock.get("feed").serverSentEvents(maxReconnects: 1)
        let error = await #expect(throws: RequestError.self) { _ = try await collect(stream) }
        #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect(mock.recordedRequests.count == 2)
    }

    @Test func noReconnectionAskedMeansOneConnection() async throws {
        let mock = mock([{ .response($0, body: Data("data: 1\n\n".utf8), headers: Self.eventStream) }])
        var events: [ServerSentEvent] = []
        for try await case .event(let event) in mock.get("feed").serverSentEvents(maxReconnects: 0) { events.append(event) }
        #expect(events == [ServerSentEvent(data: "1")])
        #expect(mock.recordedRequests.count == 1)
    }

    @Test func aRequestsOwnAcceptIsKept() async throws {
        let mock = mock([])
        _ = try await collect(mock.get("feed").accept("text/event-stream; charset=utf-8").serverSentEvents(maxReconnects: 0))
        #expect(mock.recordedRequests.map { $0.header(.accept) } == ["text/event-stream; charset=utf-8"])
    }

    @Test func observersSeeEveryConnection() async throws {
        let log = FinishLog()
        let mock = mock([
            { .response($0, body: Data("retry: 0\ndata: 1\n\n".utf8), headers: Self.eventStream) },
            { .response($0, body: Data("data: 2\n\n".utf8), headers: Self.eventStream) },
        ], observer: log.observe)
        _ = try await collect(mock.get("feed").serverSentEvents(maxReconnects: 5))
        #expect(log.statuses.withLock { $0 } == [200, 200, 204])
    }

    @Test func errorsGoThroughTheClientsMapping() async throws {
        struct AppError: Error { let stage: String }
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).mapError { AppError(stage: $0.stage) }.mocked()
        mock.resultProvider = { .response($0, body: Data("data: 1\n\n".utf8), headers: ["Content-Type": "text/plain"]) }
        let error = await #expect(throws: AppError.self) { _ = try await collect(mock.get("feed").serverSentEvents(maxReconnects: 3)) }
        #expect(error?.stage == "validate")
        #expect(mock.recordedRequests.count == 1)
    }
}

/// The status of each call observers hear the end of.
private final class FinishLog: Sendable {
    let statuses = Locked<[Int]>([])
    func observe(_ event: RequestEvent) {
        if case .finished(let metrics) = event.kind { statuses.withLock { $0.append(metrics.statusCode ?? 0) } }
    }
}
