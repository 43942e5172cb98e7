#if ServerObservability && AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import OTel
import ServiceLifecycle
import SwiftApiDsl
import SwiftApiDslServerObservability
import Testing
import Tracing

/// End to end: swift-otel's tracer and metrics, exporting over OTLP/HTTP to a receiver this test
/// starts on loopback, while the client calls httpbin (started by `Scripts/test`, announced in
/// `HTTPBIN_URL`), which echoes the `traceparent` it received.
@Suite struct OTelExportTests {
    struct NoServer: Error, CustomStringConvertible {
        var description: String { "HTTPBIN_URL is not set: run the tests through Scripts/test, which starts httpbin" }
    }

    struct Echo: Decodable {
        let headers: [String: String]
    }

    @Test func spansAndMetricsReachAnOTLPReceiverAndTheServerContinuesTheTrace() async throws {
        guard let root = ProcessInfo.processInfo.environment["HTTPBIN_URL"], let base = URL(string: root) else { throw NoServer() }
        let receiver = try await OTLPReceiver()
        var configuration = OTel.Configuration.default
        configuration.serviceName = "orders"
        configuration.diagnosticLogLevel = .error
        configuration.traces.otlpExporter.endpoint = "\(receiver.url)/v1/traces"
        configuration.traces.otlpExporter.protocol = .httpJSON
        configuration.metrics.otlpExporter.endpoint = "\(receiver.url)/v1/metrics"
        configuration.metrics.otlpExporter.protocol = .httpJSON
        configuration.logs.enabled = false
        let tracing = try OTel.makeTracingBackend(configuration: configuration)
        let metrics = try OTel.makeMetricsBackend(configuration: configuration)
        let group = ServiceGroup(services: [tracing.service, metrics.service], logger: Logger(label: "otel-test"))
        let running = Task { try await group.run() }

        let tracer = tracing.factory
        let client = ApiClient(baseUrl: base).tracing(tracer).metrics(metrics.factory)
        let echo = try await tracer.withSpan("GET /orders/{id}", ofKind: .server) { _ in
            try await client.get("anything/orders").queryItem(name: "api_key", "s3cret").perform(as: Echo.self)
        }
        // Graceful shutdown exports what is left, then the services return.
        await group.triggerGracefulShutdown()
        try await running.value
        try await receiver.close()

        let spans = try receiver.exports(at: "/v1/traces").flatMap(OTLPJSON.spans)
        let call = try #require(spans.first { $0.name == "GET" })
        let handler = try #require(spans.first { $0.name == "GET /orders/{id}" })
        #expect(spans.count == 2)
        #expect(call.kind == 3)        // SPAN_KIND_CLIENT
        #expect(handler.kind == 2)     // SPAN_KIND_SERVER
        #expect(call.traceID == handler.traceID)
        #expect(call.parentSpanID == handler.spanID)
        #expect(call.attributes["http.request.method"] == "GET")
        #expect(call.attributes["url.full"] == "\(root)/anything/orders?api_key=REDACTED")
        #expect(call.attributes["server.address"] == base.host)
        #expect(call.attributes["server.port"] == base.port.map(String.init))
        #expect(call.attributes["http.response.status_code"] == "200")
        #expect(call.attributes["error.type"] == nil)

        // httpbin received the call span's context: its trace, with the call span as its parent.
        let traceparent = try #require(echo.headers.first { $0.key.lowercased() == "traceparent" }?.value)
        #expect(traceparent == "00-\(call.traceID)-\(call.spanID)-01")

        let points = try receiver.exports(at: "/v1/metrics").flatMap(OTLPJSON.metricPoints)
        #expect(Set(points.map(\.name)).isSuperset(of: ["http.client.request.duration", "http.client.active_requests", "swiftapidsl.client.cache_outcomes"]))
        let duration = try #require(points.first { $0.name == "http.client.request.duration" })
        #expect(duration.attributes == [
            "http.request.method": "GET", "http.response.status_code": "200",
            "server.address": base.host ?? "", "server.port": base.port.map(String.init) ?? "",
        ])
    }
}

/// Reads OTLP's JSON encoding: ids as the exporter wrote them (protobuf's JSON form of bytes,
/// base64) turned into the hexadecimal of `traceparent`, attribute values as text.
enum OTLPJSON {
    struct Span {
        let name: String
        let kind: Int
        let traceID: String
        let spanID: String
        let parentSpanID: String
        let attributes: [String: String]
    }

    static func spans(in export: [String: Any]) -> [Span] {
        let resourceSpans = export["resourceSpans"] as? [[String: Any]] ?? []
        return resourceSpans.flatMap { ($0["scopeSpans"] as? [[String: Any]]) ?? [] }
            .flatMap { ($0["spans"] as? [[String: Any]]) ?? [] }
            .map { span in
                Span(
                    name: span["name"] as? String ?? "",
                    kind: span["kind"] as? Int ?? 0,
                    traceID: hex(span["traceId"]),
                    spanID: hex(span["spanId"]),
                    parentSpanID: hex(span["parentSpanId"]),
                    attributes: attributes(span["attributes"])
                )
            }
    }

    /// Each data point of each metric: its name and its attributes (the dimensions).
    static func metricPoints(in export: [String: Any]) -> [(name: String, attributes: [String: String])] {
        let resourceMetrics = export["resourceMetrics"] as? [[String: Any]] ?? []
        return resourceMetrics.flatMap { ($0["scopeMetrics"] as? [[String: Any]]) ?? [] }
            .flatMap { ($0["metrics"] as? [[String: Any]]) ?? [] }
            .flatMap { metric -> [(name: String, attributes: [String: String])] in
                let name = metric["name"] as? String ?? ""
                // The data is under the metric's kind: `histogram`, `gauge` or `sum`.
                let points = metric.values.compactMap { ($0 as? [String: Any])?["dataPoints"] as? [[String: Any]] }.joined()
                return points.map { (name, attributes($0["attributes"])) }
            }
    }

    /// `[{"key": k, "value": {"stringValue": v}}]` (or `intValue`, which protobuf's JSON writes as text).
    static func attributes(_ value: Any?) -> [String: String] {
        var result: [String: String] = [:]
        for attribute in value as? [[String: Any]] ?? [] {
            guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any],
                  let first = value.values.first else { continue }
            result[key] = "\(first)"
        }
        return result
    }

    /// A 16- or 8-byte id as lowercase hexadecimal, whether written in hexadecimal or in base64.
    static func hex(_ value: Any?) -> String {
        guard let text = value as? String, !text.isEmpty else { return "" }
        if text.count == 32 || text.count == 16, text.allSatisfy(\.isHexDigit) { return text.lowercased() }
        guard let bytes = Data(base64Encoded: text) else { return text }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
#endif
