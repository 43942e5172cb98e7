#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Lines and Server-Sent Events read from a real streamed body (Scripts/testserver/routes_events.py).
@Suite struct ServerSentEventWireTests {
    /// Counts what observers hear of a streamed request.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [String] = []
        var all: [String] { lock.lock(); defer { lock.unlock() }; return events }
        private func add(_ event: String) { lock.lock(); events.append(event); lock.unlock() }
        func observe(_ event: RequestEvent) {
            switch event.kind {
            case .responseHead(let statusCode, _, _): add("head \(statusCode)")
            case .finished(let metrics): add("finished \(metrics.bytesReceived) bytes, error: \(metrics.error == nil ? "none" : "some")")
            default: break
            }
        }
    }

    @Test func eventsAreParsedAsTheyArrive() async throws {
        var events: [ServerSentEvent] = []
        for try await case .event(let event) in try TestServer.client().get("events").serverSentEvents(maxReconnects: 0) { events.append(event) }
        #expect(events == [
            ServerSentEvent(type: "message", data: "first", lastEventId: "", retry: 2000),
            ServerSentEvent(type: "update", data: "{\"n\":1}\n{\"n\":2}", lastEventId: "7", retry: 2000),
            ServerSentEvent(type: "message", data: "café ☕", lastEventId: "7", retry: 2000),
            ServerSentEvent(type: "done", data: "", lastEventId: "8", retry: 2000),
        ])
    }

    @Test func linesCutAcrossWritesArriveWhole() async throws {
        let response = try await TestServer.client().get("lines").stream()
        var lines: [String] = []
        for try await line in response.body.lines { lines.append(line) }
        #expect(lines == ["alpha", "beta", "gamma été", "", "delta"])
    }

    /// Breaking out of the loop is the end: the stream never ends by itself, so a hang here is
    /// caught by the time limit, not by a bound on how long three events take.
    @Test(.timeLimit(.minutes(1))) func leavingAnEndlessStreamEndsIt() async throws {
        let client = try TestServer.client()
        var taken: [ServerSentEvent] = []
        for try await case .event(let event) in client.get("events/endless").serverSentEvents(maxReconnects: 0) {
            taken.append(event)
            if taken.count == 3 { break }
        }
        #expect(taken.map(\.data) == ["tick 1", "tick 2", "tick 3"])
        #expect(taken.map(\.lastEventId) == ["1", "2", "3"])
        // The client is still healthy afterwards.
        #expect(try await client.get("health").perform().statusCode == 200)
    }

    @Test func validatorsJudgeTheHeadBeforeAnyEvent() async throws {
        let client = try TestServer.client()
        let accepted = client.get("events").httpStatusCodeRange(200..<201).acceptableContentTypes(["text/event-stream"]).serverSentEvents(maxReconnects: 0)
        var count = 0
        for try await _ in accepted { count += 1 }
        #expect(count == 4)
        let error = await #expect(throws: RequestError.self) {
            for try await _ in client.get("events").acceptableContentTypes(["application/json"]).serverSentEvents(maxReconnects: 0) {}
        }
        #expect(error?.stage == "validate")
    }

    @Test func observersHearOfTheHeadFirstAndTheEndAfterTheLastEvent() async throws {
        let heard = Heard()
        var events = try TestServer.client().observer(heard.observe).get("events").serverSentEvents(maxReconnects: 0).makeAsyncIterator()
        var count = try await events.next() == nil ? 0 : 1
        #expect(heard.all == ["head 200"])
        while try await events.next() != nil { count += 1 }
        #expect(count == 4)
        let total = try await TestServer.client().get("events").perform().body.count
        #expect(heard.all == ["head 200", "finished \(total) bytes, error: none"])
    }
}
#endif
