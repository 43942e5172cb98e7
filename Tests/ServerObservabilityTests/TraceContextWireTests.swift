#if ServerObservability && AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import AsyncHTTPClient
import InMemoryTracing
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient
import SwiftApiDslMock
import SwiftApiDslServerObservability
import Testing
import Tracing

/// Over a real socket, on both engines: httpbin echoes the headers it received, and the
/// `traceparent` in them names the call's span as the server's parent. The mock records what it
/// was sent.
@Suite struct TraceContextWireTests {
    struct Echo: Decodable {
        let headers: [String: String]
        let url: String?

        /// The `traceparent` the server received, split into its four fields.
        func traceparent() throws -> [String] {
            let value = try #require(headers.first { $0.key.lowercased() == "traceparent" }?.value)
            return value.split(separator: "-").map(String.init)
        }
    }

    let tracer = W3CInMemoryTracer()

    /// The spans of the call: those the library started (AsyncHTTPClient's own have no `url.full`).
    var callSpans: [FinishedInMemorySpan] {
        tracer.recorder.finishedSpans.filter { $0.kind == .client && $0.attributes.text("url.full") != nil }
    }

    @Test(arguments: WireEngine.allCases)
    func theServerReceivesTheCallSpansTraceparent(engine: WireEngine) async throws {
        let (fields, parent) = try await engine.withClient { client, mock in
            try await tracer.withSpan("handler") { parent in
                let fields: [String]
                if let mock {
                    mock.stub(.get, "anything/orders", statusCode: 200)
                    _ = try await client.tracing(tracer).get("anything/orders").perform()
                    let sent = try #require(mock.recordedRequests.last?.urlRequest.value(forHTTPHeaderField: "traceparent"))
                    fields = sent.split(separator: "-").map(String.init)
                } else {
                    fields = try await client.tracing(tracer).get("anything/orders").perform(as: Echo.self).traceparent()
                }
                return (fields, parent.context.inMemorySpanContext)
            }
        }
        let call = try #require(callSpans.first)
        #expect(callSpans.count == 1)
        #expect(call.operationName == "GET")
        #expect(call.parentSpanID == parent?.spanID)
        #expect(call.traceID == parent?.traceID)
        #expect(call.attributes.text("http.response.status_code") == "200")
        // One traceparent, the call span's: the server continues the client's trace as its child.
        #expect(fields == ["00", call.traceID, call.spanID, "01"])
    }

    /// AsyncHTTPClient given a tracer of its own (as its default configuration takes the
    /// bootstrapped one) starts a span per exchange through the delegate API the transport uses:
    /// outside the caller's context (a trace of its own), and sending nothing. The server still
    /// receives one `traceparent`, the library's call span's.
    @Test func asyncHTTPClientsOwnSpanIsNoSecondParentOnTheWire() async throws {
        var configuration = AsyncHTTPClientTransport.defaultConfiguration
        configuration.tracing.tracer = tracer
        let (echo, parent) = try await WireEngine.asyncHTTPClient.withClient(configuration: configuration) { client, _ in
            try await tracer.withSpan("handler") { parent in
                (try await client.tracing(tracer).get("anything/orders").perform(as: Echo.self), parent.context.inMemorySpanContext)
            }
        }
        let clientSpans = tracer.recorder.finishedSpans.filter { $0.kind == .client }
        let call = try #require(clientSpans.first { $0.parentSpanID == parent?.spanID })
        let engine = try #require(clientSpans.first { $0.spanID != call.spanID })
        #expect(clientSpans.count == 2)
        #expect(call.attributes.text("http.request.method") == "GET")
        #expect(engine.parentSpanID == nil)
        #expect(engine.traceID != call.traceID)
        #expect(echo.headers.filter { $0.key.lowercased() == "traceparent" }.map(\.value) == ["00-\(call.traceID)-\(call.spanID)-01"])
    }

    @Test(arguments: WireEngine.real)
    func retriesOnTheWireAreResendsOfOneSpan(engine: WireEngine) async throws {
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: 0, jitter: 0)
        let status = try await engine.withClient { client, _ in
            try await client.tracing(tracer).get("status/503").retryPolicy(policy).perform().statusCode
        }
        #expect(status == 503)
        let call = try #require(callSpans.first)
        #expect(callSpans.count == 1)
        #expect(call.attributes.text("http.request.resend_count") == "2")
        #expect(call.attributes.text("http.response.status_code") == "503")
        #expect(call.attributes.text("error.type") == "503")
        #expect(call.events.map(\.name) == ["retry", "retry"])
        #expect(call.events.map { $0.attributes.text("attempt") } == ["2", "3"])
        #expect(call.status?.code == .error)
    }

    @Test(arguments: WireEngine.real)
    func redirectHopsOnTheWireAreResendsAndTheLastHopCarriesTheCallsContext(engine: WireEngine) async throws {
        let echo = try await engine.withClient { client, _ in
            try await client.tracing(tracer).get("redirect/2").perform(as: Echo.self)
        }
        let call = try #require(callSpans.first)
        let base = try WireEngine.httpbin().absoluteString
        #expect(callSpans.count == 1)
        #expect(call.attributes.text("url.full") == base + "/get")
        #expect(call.attributes.text("http.request.resend_count") == "2")
        #expect(call.attributes.text("http.response.status_code") == "200")
        #expect(call.events.map(\.name) == ["redirect", "redirect"])
        #expect(call.events.map { $0.attributes.text("http.response.status_code") } == ["302", "302"])
        #expect(try echo.traceparent() == ["00", call.traceID, call.spanID, "01"])
    }

    @Test(arguments: WireEngine.real)
    func aRefreshsOwnCallOnTheWireIsASpanOfItsOwnInTheSameTrace(engine: WireEngine) async throws {
        // httpbin's basic-auth refuses the first credential (401) and takes the renewed one.
        let refreshed = Counter()
        let (status, parent) = try await engine.withClient { client, _ in
            let traced = client.tracing(tracer)
            let renewing = traced.authentication(
                credential: { refreshed.count == 0 ? "dXNlcjp3cm9uZw==" : "dXNlcjpwYXNzd2Q=" },
                apply: { .header("Authorization", "Basic \($0)") },
                refresh: { _ in
                    _ = try await traced.post("anything/token").perform()
                    _ = refreshed.next()
                    return "dXNlcjpwYXNzd2Q="
                }
            )
            return try await tracer.withSpan("handler") { parent in
                (try await renewing.get("basic-auth/user/passwd").perform().statusCode, parent.context.inMemorySpanContext)
            }
        }
        #expect(status == 200)
        let call = try #require(callSpans.first { $0.operationName == "GET" })
        let refresh = try #require(callSpans.first { $0.operationName == "POST" })
        #expect(callSpans.count == 2)
        #expect(call.traceID == parent?.traceID)
        #expect(refresh.traceID == parent?.traceID)
        #expect(call.parentSpanID == parent?.spanID)
        #expect(refresh.parentSpanID == parent?.spanID)
        #expect(call.attributes.text("http.request.resend_count") == "1")
        #expect(call.attributes.text("http.response.status_code") == "200")
        #expect(call.events.map(\.name) == ["retry"])
        #expect(call.events.first?.attributes.text("error.type") == "401")
        #expect(refresh.attributes.text("http.response.status_code") == "200")
        // Neither the credentials nor their renewal are in any attribute.
        var texts = ""
        for span in [call, refresh] { span.attributes.forEach { name, value in texts += "\(name)=\(value) " } }
        #expect(!texts.isEmpty)
        #expect(!texts.contains("dXNlcj"))
    }
}
#endif
