#if OpenAPI && AsyncHTTPClient
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslOpenAPI

/// Bodies both ways over both engines: a request body streamed as it is produced, a response
/// body handed to the generated code as it arrives, and the exchange stopped with its reader.
@Suite struct StreamingWireTests {
    /// Chunks produced one by one, each after the previous one was taken.
    static func chunks(_ pieces: [String]) -> AsyncStream<ArraySlice<UInt8>> {
        let remaining = Shared(pieces[...])
        return AsyncStream { remaining.withLock { $0.popFirst() }.map { ArraySlice($0.utf8) } }
    }

    func send(_ body: HTTPBody, on engine: Engine) async throws -> RawRequest {
        let server = try Servers.testServer()
        let transport = ApiClientTransport(engine.client(server))
        let request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/raw-request",
                                  headerFields: [.contentType: "text/plain"])
        let (response, responseBody) = try await transport.send(request, body: body, baseURL: server, operationID: "upload")
        #expect(response.status == .ok)
        let data = try await Data(collecting: try #require(responseBody), upTo: 1 << 20)
        return try JSONDecoder().decode(RawRequest.self, from: data)
    }

    /// AsyncHTTPClient streams a body of unknown length chunked; URLSession gathers it first
    /// (see `URLSessionTransport`) and sends it with its length.
    @Test(arguments: Engine.allCases)
    func aBodyOfUnknownLengthIsStreamed(engine: Engine) async throws {
        let body = HTTPBody(Self.chunks(["alpha ", "beta ", "gamma"]), length: .unknown, iterationBehavior: .single)
        let seen = try await send(body, on: engine)
        #expect(seen.body == "alpha beta gamma")
        #expect(seen.framing == (engine == .asyncHTTPClient ? "chunked" : "length"))
        #expect(seen.field("Content-Length") == (engine == .asyncHTTPClient ? nil : "16"))
    }

    @Test(arguments: Engine.allCases)
    func aStreamedBodyOfKnownLengthIsSentWithItsLength(engine: Engine) async throws {
        let body = HTTPBody(Self.chunks(["alpha ", "beta ", "gamma"]), length: .known(16), iterationBehavior: .single)
        let seen = try await send(body, on: engine)
        #expect(seen.body == "alpha beta gamma")
        #expect(seen.framing == "length")
        #expect(seen.field("Content-Length") == "16")
        #expect(seen.field("Transfer-Encoding") == nil)
    }

    @Test(arguments: Engine.allCases)
    func aSmallRepeatableBodyIsSentFromMemoryWithItsLength(engine: Engine) async throws {
        let seen = try await send(HTTPBody(#"{"title":"Walk"}"#), on: engine)
        #expect(seen.body == #"{"title":"Walk"}"#)
        #expect(seen.framing == "length")
        #expect(seen.field("Content-Length") == "16")
    }

    /// Events of a stream that never ends reach the generated code one by one: were the body
    /// gathered first, the first event would never come.
    @Test(.timeLimit(.minutes(1)), arguments: Engine.allCases)
    func serverSentEventsArriveOneByOne(engine: Engine) async throws {
        let server = try Servers.testServer()
        let (finished, finish) = AsyncStream<Void>.makeStream()
        let client = engine.client(server).observer { event in
            if case .finished = event.kind { finish.yield() }
        }
        let text = try await Self.readThreeEvents(through: ApiClientTransport(client), server: server)
        #expect(text.hasPrefix("id: 1\ndata: tick 1\n\nid: 2\ndata: tick 2\n\nid: 3\ndata: tick 3\n\n"))
        // The body was released when the reading ended: the exchange ends, and observers hear it.
        var events = finished.makeAsyncIterator()
        #expect(await events.next() != nil)
    }

    /// The endless stream's text up to its third event, read as the generated code reads a body.
    static func readThreeEvents(through transport: ApiClientTransport, server: URL) async throws -> String {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/events/endless",
                                  headerFields: [.accept: "text/event-stream"])
        let (response, body) = try await transport.send(request, body: nil, baseURL: server, operationID: "events")
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentType] == "text/event-stream")
        var text = ""
        for try await chunk in try #require(body) {
            text += String(decoding: chunk, as: UTF8.self)
            if text.contains("data: tick 3\n\n") { break }
        }
        return text
    }

    /// Cancelling the task that reads the body stops the exchange: the read of an endless stream
    /// ends with an error, and observers hear that the request finished, cancelled.
    @Test(.timeLimit(.minutes(1)), arguments: Engine.allCases)
    func cancellingTheReaderStopsTheExchange(engine: Engine) async throws {
        let server = try Servers.testServer()
        let (finished, finish) = AsyncStream<String>.makeStream()
        let client = engine.client(server).observer { event in
            if case .finished(let metrics) = event.kind {
                finish.yield(metrics.error.map { "\($0.isCancellation)" } ?? "no error")
            }
        }
        let transport = ApiClientTransport(client)
        let (events, event) = AsyncStream<Void>.makeStream()
        let reader = Task {
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/events/endless")
            let (_, body) = try await transport.send(request, body: nil, baseURL: server, operationID: "events")
            for try await _ in try #require(body) { event.yield() }
        }
        var firstEvent = events.makeAsyncIterator()
        #expect(await firstEvent.next() != nil)
        reader.cancel()
        // The stream never ends: only the cancellation can end the read.
        let result = await reader.result
        #expect(throws: (any Error).self) { try result.get() }
        var outcomes = finished.makeAsyncIterator()
        #expect(await outcomes.next() == "true")
    }
}
#endif
