#if WIRE_SUITES
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
    final class Texts: @unchecked Sendable {
        private let lock = NSLock()
        private var texts: [String] = []
        var all: [String] { lock.lock(); defer { lock.unlock() }; return texts }
        private func add(_ values: [String]) { lock.lock(); texts += values; lock.unlock() }
        func observe(_ event: RequestEvent) {
            switch event.kind {
            case .prepared(let request):
                add([event.description, request.curlDescription, "\(request.headerFields)", String(reflecting: event)])
            case .responseHead(_, let headerFields, _):
                add([event.description, "\(headerFields)", String(reflecting: event)])
            case .finished(let metrics):
                add([event.description, String(reflecting: metrics)])
            default:
                break
            }
        }
    }

    static let secrets = ["k3y-value", "s3ssion-value", "t0ken-value", "s1gnature-value", "c00kie-value"]

    @Test func noSecretSentOrReceivedShowsInAnyText() async throws {
        let texts = Texts()
        HeaderField.redact(["X-Wire-Redaction-Signature"])
        let client = try HttpBin.client()
            .header("X-Api-Key", "k3y-value")
            .header("X-Session-Id", "s3ssion-value")
            .header("X-Wire-Redaction-Signature", "s1gnature-value")
            .observer(texts.observe)
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

    /// `description`, `debugDescription` and `dump` of `value`.
    static func textForms(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped]
    }

    /// Keeps every event it is told of, as it is.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [Any] = []
        var all: [Any] { lock.lock(); defer { lock.unlock() }; return events }
        private func add(_ values: [Any]) { lock.lock(); events += values; lock.unlock() }
        func observe(_ event: RequestEvent) {
            switch event.kind {
            case .prepared(let request): add([event, request.curlDescription])
            case .responseHead, .finished: add([event])
            default: break
            }
        }
    }

    @Test func noSecretShowsInAnyTextFormOfResponsesClientsCallsOrCurlCommands() async throws {
        let secrets = ["k3y-value", "c00kie-value", "pa55word", "t0ken-value", "qu3ry-value"]
        // A transport of its own: the Set-Cookie below goes into its own cookie store.
        var base = URLComponents(url: try HttpBin.url(), resolvingAgainstBaseURL: false)!
        base.user = "me"
        base.password = "pa55word"
        let events = Events()
        let client = ApiClient(transport: WireTransport.fresh(), baseUrl: base.url!)
            .observer(events.observe)
            .header("X-Api-Key", "k3y-value")
            .bearer("t0ken-value")
        let call = client.get("response-headers")
            .queryItems([URLQueryItem(name: "X-Api-Key", value: "k3y-value"), URLQueryItem(name: "Set-Cookie", value: "sid=c00kie-value")])
        let response = try await call.perform()
        // The secrets really came back: only their text is redacted.
        #expect(response.headerFields["X-Api-Key"] == "k3y-value")
        #expect(response.headerFields["Set-Cookie"] == "sid=c00kie-value")
        let again = try await call.perform() // sent with the session's cookie, if it keeps one
        let endpoint = Endpoint<Data>(.get, url: base.url!.appendingPathComponent("anything"),
                                      query: [URLQueryItem(name: "access_token", value: "qu3ry-value")],
                                      headers: ["X-Api-Key": "k3y-value"])
        let curl = TransportRequest(url: base.url!, headerFields: ["Authorization": "Bearer t0ken-value"]).curlDescription
        // What a middleware and a custom redirect policy are handed, as text.
        let handed = Trail()
        let seen = Middleware("texts") { request, next in
            let response = try await next(request)
            handed.add(Self.textForms(of: response).joined(separator: "\n"))
            return response
        }
        let policy = RedirectPolicy.custom { redirect in
            handed.add(Self.textForms(of: redirect).joined(separator: "\n"))
            return redirect.proposedRequest
        }
        _ = try await client.get("redirect-to").queryItem(name: "url", "/get")
            .middleware(seen).redirectPolicy(policy).perform()
        #expect(handed.all.count == 3) // two responses, one redirect
        var failing = URLComponents(url: base.url!, resolvingAgainstBaseURL: false)!
        failing.path = "/token"
        let cause = URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: failing.url!])
        let refreshFailure = ApiClientError(.credentialRefreshFailed, message: "the credential could not be renewed: URLError -1001 (timed out)", underlyingError: cause)
        let values: [(String, Any)] = [
            ("response", response), ("second response", again), ("header fields", response.headerFields),
            ("a field", response.headerFields.fields.first { $0.name.lowercased() == "set-cookie" } as Any),
            ("client", client), ("call", call), ("endpoint", endpoint), ("cURL command", curl),
            ("transport request", TransportRequest(url: base.url!, headerFields: ["X-Api-Key": "k3y-value"])),
            ("transport", client.transport), ("refresh failure", refreshFailure),
        ] + handed.all.map { ("value a middleware or policy is handed", $0) }
        #expect(events.all.count == 13) // per call a request, its cURL command and metrics; a head per hop (1, 1, 2)
        for (name, value) in values + events.all.map({ ("observer event \(type(of: $0))", $0) }) {
            for text in Self.textForms(of: value) {
                for secret in secrets { #expect(!text.contains(secret), "\(secret) shows in the text of the \(name): \(text)") }
            }
        }
        #expect(String(describing: response.headerFields).contains("X-Api-Key: <redacted>"))
        #expect(String(describing: client).contains("me:%3Credacted%3E@127.0.0.1"))
    }
}
#endif
