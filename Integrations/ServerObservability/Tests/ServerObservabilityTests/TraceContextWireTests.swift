import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import InMemoryTracing
import SwiftApiDsl
import Testing
import Tracing

/// Over a real socket: httpbin (started by `Scripts/test`, announced in `HTTPBIN_URL`) echoes the
/// headers it received, and its `traceparent` names the client's span as the server's parent.
@Suite struct TraceContextWireTests {
    struct NoServer: Error, CustomStringConvertible {
        var description: String { "HTTPBIN_URL is not set: run the tests through Scripts/test, which starts httpbin" }
    }

    struct Echo: Decodable {
        let headers: [String: String]
    }

    @Test func theServerReceivesTheCallSpansTraceparent() async throws {
        guard let root = ProcessInfo.processInfo.environment["HTTPBIN_URL"], let base = URL(string: root) else { throw NoServer() }
        let tracer = W3CInMemoryTracer()
        let client = ApiClient(baseUrl: base).tracing(tracer)
        let (echo, parent) = try await tracer.withSpan("handler") { parent in
            (try await client.get("anything/orders").perform(as: Echo.self), parent.context.inMemorySpanContext)
        }
        let call = try #require(tracer.recorder.finishedSpans.first { $0.kind == .client })
        #expect(call.parentSpanID == parent?.spanID)
        #expect(call.attributes.text("http.response.status_code") == "200")
        #expect(call.attributes.text("server.address") == base.host)
        #expect(call.attributes.text("server.port") == base.port.map(String.init))

        let traceparent = try #require(echo.headers.first { $0.key.lowercased() == "traceparent" }?.value)
        let fields = traceparent.split(separator: "-").map(String.init)
        #expect(fields.count == 4)
        #expect(fields.first == "00")
        // The server continues the client's trace, as a child of the call's span.
        #expect(fields.dropFirst().first == call.traceID)
        #expect(fields.dropFirst(2).first == call.spanID)
    }
}
