#if ServerObservability && AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import InMemoryTracing
import SwiftApiDsl
import SwiftApiDslCache
import SwiftApiDslMock
import SwiftApiDslServerObservability
import Testing
import Tracing

@Suite struct TracingTests {
    let tracer = InMemoryTracer()
    let mock = ApiClientMock(baseUrl: URL(string: "https://bob:hunter2@api.example.com:8443/v1")!)

    @Test func aCallIsOneClientSpanUnderTheCallersWithItsContextOnTheWire() async throws {
        mock.stub(.get, "items", statusCode: 200)
        let client = mock.client.tracing(tracer)
        let parent = try await tracer.withSpan("handler") { parent in
            _ = try await client.get("items").queryItem(name: "access_token", "s3cret").queryItem(name: "page", "2").perform()
            return parent.context.inMemorySpanContext
        }
        let call = try #require(tracer.finishedSpans.first { $0.operationName == "GET" })
        #expect(call.kind == .client)
        #expect(call.traceID == parent?.traceID)
        #expect(call.parentSpanID == parent?.spanID)
        #expect(call.attributes.text("http.request.method") == "GET")
        #expect(call.attributes.text("url.full") == "https://REDACTED:REDACTED@api.example.com:8443/v1/items?access_token=REDACTED&page=2")
        #expect(call.attributes.text("server.address") == "api.example.com")
        #expect(call.attributes.text("server.port") == "8443")
        #expect(call.attributes.text("http.response.status_code") == "200")
        #expect(call.attributes.text("error.type") == nil)
        #expect(call.status == nil)
        // The call's own context went on the wire, through the tracer's inject.
        let sent = try #require(mock.recordedRequests.last).urlRequest
        #expect(sent.value(forHTTPHeaderField: InMemoryTracer.traceIDKey) == call.traceID)
        #expect(sent.value(forHTTPHeaderField: InMemoryTracer.spanIDKey) == call.spanID)
        #expect(tracer.activeSpans.isEmpty)
    }

    /// The only test that bootstraps the process's tracer (the others give theirs).
    @Test func nothingSecretIsInASpanItsEventsOrItsError() async throws {
        mock.appliesValidators = true
        mock.stub(.get, "me", statusCode: 401, headers: ["Set-Cookie": "session=cookie-secret"])
        let client = mock.client.validator(.httpStatusCodeRange()).tracing(tracer)
            .bearer("token-secret").header("Cookie", "sid=cookie-secret").header("X-Api-Key", "key-secret")
        await #expect(throws: RequestError.self) {
            try await client.get("me").queryItem(name: "api_key", "query-secret").retryPolicy(.immediate).perform()
        }
        let call = try #require(tracer.finishedSpans.first)
        #expect(call.attributes.text("url.full") == "https://REDACTED:REDACTED@api.example.com:8443/v1/me?api_key=REDACTED")
        var texts: [String] = []
        call.attributes.forEach { name, value in texts.append("\(name)=\(value)") }
        for event in call.events { event.attributes.forEach { name, value in texts.append("\(event.name) \(name)=\(value)") } }
        texts += call.errors.map { String(describing: $0.error) }
        #expect(call.errors.count == 1)
        #expect(texts.count > 5)
        for secret in ["hunter2", "token-secret", "cookie-secret", "key-secret", "query-secret"] {
            #expect(!texts.joined(separator: "\n").contains(secret), "\(secret) in \(texts)")
        }
    }

    @Test func theBootstrappedTracerIsTheOneOfTheMomentTheCallStarts() async throws {
        mock.stub(.get, "items", statusCode: 200)
        let client = mock.client.tracing()
        InstrumentationSystem.bootstrap(tracer)
        _ = try await client.get("items").perform()
        #expect(tracer.finishedSpans.map(\.operationName) == ["GET"])
    }

    @Test func aRejectedStatusEndsTheSpanAsAnError() async throws {
        mock.appliesValidators = true
        mock.stub(.get, "missing", statusCode: 404)
        await #expect(throws: RequestError.self) { try await mock.client.validator(.httpStatusCodeRange()).tracing(tracer).get("missing").perform() }
        let call = try #require(tracer.finishedSpans.first)
        #expect(call.attributes.text("http.response.status_code") == "404")
        #expect(call.attributes.text("error.type") == "404")
        #expect(call.status?.code == .error)
        #expect(call.errors.count == 1)
        #expect(tracer.activeSpans.isEmpty)
    }

    @Test func aFailingModifierStillHasItsSpan() async throws {
        struct NoToken: Error {}
        let client = mock.client.tracing(tracer)
        await #expect(throws: RequestError.self) {
            try await client.get("items").modifier { (_: inout URLRequest) in throw NoToken() }.perform()
        }
        let call = try #require(tracer.finishedSpans.first)
        #expect(call.attributes.text("error.type") == "modify")
        #expect(call.status?.code == .error)
        #expect(mock.recordedRequests.isEmpty)
    }

    @Test func retriesAreResendsOfOneSpan() async throws {
        mock.stubFailingOnce("flaky")
        let client = mock.client.tracing(tracer)
        _ = try await client.get("flaky").retryPolicy(.immediate).perform()
        let spans = tracer.finishedSpans
        #expect(spans.count == 1)
        let call = try #require(spans.first)
        #expect(call.attributes.text("http.request.resend_count") == "1")
        #expect(call.attributes.text("http.response.status_code") == "200")
        #expect(call.events.map(\.name) == ["retry"])
        // Both attempts carried the one call span's context.
        #expect(mock.recordedRequests.map { $0.urlRequest.value(forHTTPHeaderField: InMemoryTracer.spanIDKey) } == [call.spanID, call.spanID])
    }

    @Test func aRedirectIsAResendAndTheSpanHasTheFinalURL() async throws {
        mock.stub(.get, "old", statusCode: 302, headers: ["Location": "https://api.example.com:8443/v1/new"])
        mock.stub(.get, "new", statusCode: 200)
        _ = try await mock.client.tracing(tracer).get("old").perform()
        let call = try #require(tracer.finishedSpans.first)
        #expect(tracer.finishedSpans.count == 1)
        #expect(call.attributes.text("url.full") == "https://api.example.com:8443/v1/new")
        #expect(call.attributes.text("http.request.resend_count") == "1")
        #expect(call.events.map(\.name) == ["redirect"])
    }

    @Test func aNamedCallCarriesItsNameAndAnUnnamedOneNone() async throws {
        mock.stub(.get, "pools", statusCode: 200)
        let client = mock.client.tracing(tracer)
        _ = try await client.get("pools").name("getPools").perform()
        _ = try await client.get("pools").perform()
        let spans = tracer.finishedSpans.filter { $0.kind == .client }
        #expect(spans.map { $0.attributes.text("swiftapidsl.request.name") } == ["getPools", nil])
        #expect(spans.map(\.operationName) == ["GET", "GET"])
    }

    @Test func aCancelledCallEndsItsSpan() async throws {
        mock.resultProvider = { _ in
            try await Task.sleep(for: .seconds(30))
            return nil
        }
        let (prepared, signal) = AsyncStream<Void>.makeStream()
        let client = mock.client.tracing(tracer).observer { event in
            if case .prepared = event.kind { signal.yield() }
        }
        let task = Task { try await client.get("slow").perform() }
        var events = prepared.makeAsyncIterator()
        _ = await events.next()
        #expect(tracer.activeSpans.count == 1)
        task.cancel()
        _ = await task.result
        let call = try #require(tracer.finishedSpans.first)
        #expect(call.attributes.text("error.type") == "cancelled")
        #expect(tracer.activeSpans.isEmpty)
    }

    @Test func aTimeoutIsAnErrorOfTypeTimeout() async throws {
        mock.resultProvider = { _ in throw URLError(.timedOut) }
        await #expect(throws: RequestError.self) { try await mock.client.tracing(tracer).get("slow").perform() }
        let call = try #require(tracer.finishedSpans.first)
        #expect(call.attributes.text("error.type") == "timeout")
        #expect(call.attributes.text("http.response.status_code") == nil)
        #expect(call.status?.code == .error)
    }

    @Test func aCacheHitIsASpanWithItsOutcome() async throws {
        mock.stub(.get, "cached", statusCode: 200, headers: ["Cache-Control": "max-age=60"])
        let client = mock.client.cache(.memory()).tracing(tracer)
        _ = try await client.get("cached").perform()
        _ = try await client.get("cached").perform()
        let spans = tracer.finishedSpans
        #expect(spans.count == 2)
        #expect(spans.last?.attributes.text("swiftapidsl.cache.outcome") == "stored")
        #expect(spans.last?.attributes.text("http.response.status_code") == "200")
        #expect(mock.recordedRequests.count == 1)
    }

    @Test func aRefreshsOwnCallIsASpanOfItsOwnInTheSameTrace() async throws {
        mock.stub(.post, "token", statusCode: 200)
        let tokenClient = mock.client.tracing(tracer)
        let client = mock.clientRenewingItsToken(at: "me") { _ = try await tokenClient.post("token").perform() }
            .tracing(tracer)
        let parent = try await tracer.withSpan("handler") { parent in
            _ = try await client.get("me").perform()
            return parent.context.inMemorySpanContext
        }
        let spans = tracer.finishedSpans.filter { $0.kind == .client }
        let call = try #require(spans.first { $0.operationName == "GET" })
        let refresh = try #require(spans.first { $0.operationName == "POST" })
        #expect(spans.count == 2)
        #expect(call.traceID == parent?.traceID)
        #expect(refresh.traceID == parent?.traceID)
        #expect(refresh.spanID != call.spanID)
        #expect(call.attributes.text("http.response.status_code") == "200")
        #expect(call.attributes.text("http.request.resend_count") == "1")
    }

    @Test func concurrentCallsEachInjectTheirOwnSpan() async throws {
        mock.stub(.get, "items/:id", statusCode: 200)
        let client = mock.client.tracing(tracer)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<20 { group.addTask { _ = try await client.get("items/\(id)").perform() } }
            try await group.waitForAll()
        }
        let spanByPath = Dictionary(uniqueKeysWithValues: tracer.finishedSpans.map {
            (URL(string: $0.attributes.text("url.full")!)!.lastPathComponent, $0.spanID)
        })
        #expect(spanByPath.count == 20)
        for request in mock.recordedRequests {
            #expect(request.urlRequest.value(forHTTPHeaderField: InMemoryTracer.spanIDKey) == spanByPath[request.url.lastPathComponent])
        }
    }
}
#endif
