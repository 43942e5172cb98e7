import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Secrets sent to and received from a real server never show in any text the library makes:
/// error descriptions, dumps, observer events, cURL lines.
@Suite struct RedactionWireTests {
    /// Every text an observer's events render.
    final class Texts: RequestObserver, @unchecked Sendable {
        private let lock = NSLock()
        private var texts: [String] = []
        var all: [String] { lock.lock(); defer { lock.unlock() }; return texts }
        private func add(_ values: [String]) { lock.lock(); texts += values; lock.unlock() }
        func requestPrepared(_ request: ObservedRequest) {
            add([request.description, request.curl.description, "\(request.redactedHeaders)", String(reflecting: request)])
        }
        func responseHeadReceived(_ head: ObservedResponseHead) {
            add([head.description, "\(head.redactedHeaders)", String(reflecting: head)])
        }
        func requestFinished(_ metrics: RequestMetrics) { add([metrics.description, String(reflecting: metrics)]) }
    }

    static let secrets = ["k3y-value", "s3ssion-value", "t0ken-value", "s1gnature-value", "c00kie-value"]

    @Test func noSecretSentOrReceivedShowsInAnyText() async throws {
        let texts = Texts()
        let client = try HttpBin.client()
            .redactingHeaders(["X-Wire-Redaction-Signature"])
            .header("X-Api-Key", "k3y-value")
            .header("X-Session-Id", "s3ssion-value")
            .header("X-Wire-Redaction-Signature", "s1gnature-value")
            .observer(texts)
            .httpStatusCodeRange(200..<201)
        // httpbin answers with the headers the query names: two secrets come back. (No Set-Cookie:
        // URLSession's shared cookie store would send it with the other tests' requests.)
        let request = client.get("response-headers")
            .queryItems([URLQueryItem(name: "X-Session-Token", value: "t0ken-value"),
                         URLQueryItem(name: "X-Refresh-Auth", value: "c00kie-value")])
            .validator { _ in throw Boom() }
        let error = await #expect(throws: RequestError.self) { try await request.perform() }
        var dumped = ""
        dump(error, to: &dumped)
        let curl = try await request.curlDescription()
        let all = texts.all + [curl, dumped, "\(String(describing: error))", String(reflecting: error), error?.localizedDescription ?? ""]
        #expect(texts.all.count == 9) // 4 for the prepared request, 3 for the head, 2 for the metrics
        for text in all {
            for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) leaked in \(text)") }
        }
        #expect(curl.contains("-H 'X-Api-Key: <redacted>'"))
        #expect(curl.contains("-H 'X-Wire-Redaction-Signature: <redacted>'"))
        // The values were really sent: the request keeps them for the caller.
        #expect(error?.request?.value(forHTTPHeaderField: "X-Api-Key") == "k3y-value")
    }
}
