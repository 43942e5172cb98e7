#if ServerObservability && AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import InMemoryTracing
import SwiftApiDsl
import SwiftApiDslCache
import SwiftApiDslServerObservability
import Testing
import Tracing

/// Over a real socket, on both engines: the call's span ends on every path, with what ended it.
@Suite struct SpanEndWireTests {
    let tracer = W3CInMemoryTracer()

    /// The one span the library started, once no span is left open.
    func theCallSpan() throws -> FinishedInMemorySpan {
        #expect(tracer.recorder.activeSpans.isEmpty)
        let spans = tracer.recorder.finishedSpans.filter { $0.attributes.text("url.full") != nil }
        #expect(spans.count == 1)
        return try #require(spans.first)
    }

    @Test(arguments: WireEngine.real)
    func aStatusTheValidatorsRejectEndsTheSpanAsThatStatus(engine: WireEngine) async throws {
        try await engine.withClient { client, _ in
            await #expect(throws: RequestError.self) {
                try await client.tracing(tracer).validator(.httpStatusCodeRange()).get("status/404").perform()
            }
        }
        let call = try theCallSpan()
        #expect(call.attributes.text("http.response.status_code") == "404")
        #expect(call.attributes.text("error.type") == "404")
        #expect(call.status?.code == .error)
        #expect(call.errors.count == 1)
    }

    @Test(arguments: WireEngine.real)
    func anIdleTimeoutEndsTheSpanAsATimeout(engine: WireEngine) async throws {
        try await engine.withClient { client, _ in
            await #expect(throws: RequestError.self) {
                try await client.tracing(tracer).get("delay/5").timeoutInterval(0.5).perform()
            }
        }
        let call = try theCallSpan()
        #expect(call.attributes.text("error.type") == "timeout")
        #expect(call.attributes.text("http.response.status_code") == nil)
        #expect(call.status?.code == .error)
    }

    @Test(arguments: WireEngine.real)
    func aCancelledCallEndsItsSpanAsCancelled(engine: WireEngine) async throws {
        try await engine.withClient { client, _ in
            // The span starts when the request is prepared, before the observer after it hears of it.
            let (prepared, signal) = AsyncStream<Void>.makeStream()
            let traced = client.tracing(tracer).observer { event in
                if case .prepared = event.kind { signal.yield() }
            }
            let call = Task { try await traced.get("delay/5").perform() }
            var events = prepared.makeAsyncIterator()
            _ = await events.next()
            #expect(tracer.recorder.activeSpans.count == 1)
            call.cancel()
            let result = await call.result
            #expect(throws: RequestError.self) { try result.get() }
        }
        let call = try theCallSpan()
        #expect(call.attributes.text("error.type") == "cancelled")
        #expect(call.status?.code == .error)
    }

    @Test(arguments: WireEngine.real)
    func anAnswerFromTheCacheIsASpanThatSaysSo(engine: WireEngine) async throws {
        let statuses = try await engine.withClient { client, _ in
            let cached = client.cache(.memory()).tracing(tracer)
            // httpbin's /cache/60 answers with `Cache-Control: public, max-age=60`.
            return [try await cached.get("cache/60").perform().statusCode, try await cached.get("cache/60").perform().statusCode]
        }
        #expect(statuses == [200, 200])
        let spans = tracer.recorder.finishedSpans.filter { $0.attributes.text("url.full") != nil }
        #expect(spans.count == 2)
        #expect(spans.map { $0.attributes.text("swiftapidsl.cache.outcome") } == [nil, "stored"])
        #expect(spans.map { $0.attributes.text("http.response.status_code") } == ["200", "200"])
        #expect(spans.allSatisfy { $0.status == nil })
    }
}
#endif
