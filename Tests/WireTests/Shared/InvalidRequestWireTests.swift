#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// A modifier that leaves a request unfit to send fails it as `.modify` before the transport
/// sees it, on every engine (URLSession on Linux crashes the process on a nil URL).
@Suite struct InvalidRequestWireTests {
    /// The reason a request edited by `edit` is refused, checking that it failed as `.modify`.
    func refusal(_ method: HttpMethod = .get, _ edit: @escaping @Sendable (inout URLRequest) -> Void) async throws -> String? {
        let client = try HttpBin.client()
        do {
            try await client.request(method, "anything").modifier(edit).perform()
            return nil
        } catch let error as RequestError {
            guard case .modify(_, let cause) = error, let invalid = cause as? ApiClientError else {
                Issue.record("expected .modify with an ApiClientError, got \(error)")
                return nil
            }
            return invalid.message
        }
    }

    @Test func aNilUrlIsRefused() async throws {
        #expect(try await refusal { $0.url = nil } == "the request has no URL (a modifier set it to nil)")
    }

    @Test func aRelativeUrlIsRefused() async throws {
        #expect(try await refusal { $0.url = URL(string: "/x") } == "the URL /x is relative: give an absolute http or https URL")
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/file", "ws://127.0.0.1/socket"])
    func aSchemeOtherThanHttpIsRefused(link: String) async throws {
        let scheme = String(link.prefix { $0 != ":" })
        #expect(try await refusal { $0.url = URL(string: link) } == "the URL's scheme \(scheme) is not http or https")
    }

    @Test func aUrlWithoutHostIsRefused() async throws {
        #expect(try await refusal { $0.url = URL(string: "http:/path") } == "the URL http:/path has no host")
    }

    @Test func aHeaderValueWithAControlCharacterIsRefusedWithoutShowingTheValue() async throws {
        let reason = try await refusal { $0.setValue("secret\u{1}", forHTTPHeaderField: "X-Note") }
        #expect(reason == "the value of the header X-Note contains a control character")
    }

    @Test func theHeaderModifierRefusesALineBreakThatFoundationWouldDropSilently() async throws {
        let client = try HttpBin.client()
        let error = await #expect(throws: RequestError.self) {
            try await client.get("anything").header("X-Note", "secret\r\nX-Injected: 1").perform()
        }
        guard case .modify(_, let cause)? = error else { Issue.record("expected .modify, got \(String(describing: error))"); return }
        #expect((cause as? ApiClientError)?.message == "the value of the header X-Note contains a control character")
        #expect(error.map { "\($0)" }?.contains("secret") == false)
    }

    /// The message `perform` fails with as `.modify` with an ``ApiClientError``.
    func invalidReason(_ perform: () async throws -> Void) async -> String? {
        let error = await #expect(throws: RequestError.self) { try await perform() }
        guard case .modify(_, let cause)? = error, let invalid = cause as? ApiClientError else {
            Issue.record("expected .modify with an ApiClientError, got \(String(describing: error))")
            return nil
        }
        #expect(error.map { "\($0)" }?.contains("secret") == false)
        return invalid.message
    }

    @Test func anEndpointHeaderWithALineBreakIsRefusedNotDropped() async throws {
        let client = try HttpBin.client()
        let endpoint = Endpoint<Data>(.get, "anything", headers: ["X-Evil": "secret\r\nInjected: 1"])
        #expect(await invalidReason { _ = try await client.perform(endpoint) } == "the value of the header X-Evil contains a control character")
    }

    @Test func anEndpointHeaderNameThatIsNotATokenIsRefused() async throws {
        let client = try HttpBin.client()
        let endpoint = Endpoint<Data>(.get, "anything", headers: ["Bad Name": "1"])
        #expect(await invalidReason { _ = try await client.perform(endpoint) } == #"the header name "Bad Name" is not an HTTP token"#)
    }

    @Test func aClientHeaderAndAnAuthenticationValueWithALineBreakAreRefused() async throws {
        let client = try HttpBin.client()
        let onClient = client.header("X-Note", "secret\nX-Injected: 1")
        #expect(await invalidReason { try await onClient.get("anything").perform() } == "the value of the header X-Note contains a control character")
        let authenticated = client.authentication { .bearer("secret\r\nX-Injected: 1") }
        #expect(await invalidReason { try await authenticated.get("anything").perform() } == "the value of the header Authorization contains a control character")
        let refreshing = client.authentication(token: { "secret\rX" }, refresh: { $0 })
        #expect(await invalidReason { try await refreshing.get("anything").perform() } == "the value of the header Authorization contains a control character")
    }

    @Test func anEndpointHeaderIsSent() async throws {
        let echo = try await HttpBin.client().perform(Endpoint<Echo>(.get, "anything", headers: ["X-Note": "a b"]))
        #expect(echo.header("X-Note") == "a b")
    }

    @Test func aHeaderNameThatIsNotATokenIsRefused() async throws {
        #expect(try await refusal { $0.setValue("1", forHTTPHeaderField: "Bad Name") } == #"the header name "Bad Name" is not an HTTP token"#)
    }

    @Test func aMethodThatIsNotATokenIsRefused() async throws {
        #expect(try await refusal(HttpMethod("GET /admin")) { _ in } == #"the method "GET /admin" is not an HTTP token"#)
    }

    @Test func aTabInAHeaderValueIsAllowed() async throws {
        let echo = try await HttpBin.client().get("anything").header("X-Note", "a\tb").perform(as: Echo.self)
        #expect(echo.header("X-Note") == "a\tb")
    }
}
#endif
