import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// Requests to absolute URLs run the client's modifiers; authentication stays with the base URL's origin.
@Suite struct AbsoluteUrlTests {
    let mock = TodosApi.client(baseUrl: Fixtures.baseUrl, token: "abc").mocked()

    private func sent(_ request: RequestBuilder) async throws -> URLRequest {
        try await request.perform()
        return try #require(mock.recordedRequests.last).urlRequest
    }

    @Test func sameOriginUrlIsAuthenticatedAndModified() async throws {
        let request = try await sent(mock.request(url: URL(string: "https://EXAMPLE.com:443/other/list?page=2")!))
        #expect(request.url?.absoluteString == "https://EXAMPLE.com:443/other/list?page=2")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer abc")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test func otherHostSchemeOrPortGetsNoAuthentication() async throws {
        for other in ["https://cdn.example.com/api/x", "http://example.com/api/x", "https://example.com:8443/api/x"] {
            let request = try await sent(mock.request(url: URL(string: other)!))
            #expect(request.url?.absoluteString == other)
            #expect(request.value(forHTTPHeaderField: "Authorization") == nil, "\(other)")
            #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        }
    }

    @Test func optingInAuthenticatesAnotherOrigin() async throws {
        let request = try await sent(mock.request(url: URL(string: "https://cdn.example.com/x")!).authenticatingAnyOrigin())
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer abc")
        let endpoint = Endpoint<Data>(url: URL(string: "https://cdn.example.com/y")!).authenticatingAnyOrigin()
        #expect(try await mock.urlRequest(for: endpoint).value(forHTTPHeaderField: "Authorization") == "Bearer abc")
    }

    @Test func aModifierThatMovesTheRequestElsewhereDropsAuthentication() async throws {
        let moved = mock.client.modifier { $0.url = URL(string: "https://evil.example.net/steal") }
        let request = try await moved.get("todos").urlRequest()
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func rebasedClientKeepsItsModifiersAndAuthenticatesItsNewBase() async throws {
        let uploads = mock.client.baseUrl(URL(string: "https://upload.example.com/v2")!)
        let request = try await uploads.get("files").urlRequest()
        #expect(request.url?.absoluteString == "https://upload.example.com/v2/files")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer abc")
        #expect(mock.client.baseUrl == Fixtures.baseUrl)
    }

    @Test func relativeUrlFailsAsModify() async throws {
        let error = await #expect(throws: RequestError.self) { try await mock.request(url: URL(string: "todos/7")!).perform() }
        guard case .modify(_, let cause) = error else {
            Issue.record("expected a modify error, got \(String(describing: error))")
            return
        }
        #expect((cause as? ApiClientError)?.code == .unresolvableURL)
        #expect((cause as? ApiClientError)?.message == "the URL todos/7 is not absolute: it has no scheme and host")
        #expect(mock.recordedRequests.isEmpty)
    }

    @Test func theReasonForARelativeUrlHidesASecretQueryValue() async throws {
        let error = await #expect(throws: RequestError.self) {
            try await mock.request(url: URL(string: "todos/7?api_key=s3cret&page=2")!).perform()
        }
        guard case .modify(_, let cause)? = error, let invalid = cause as? ApiClientError else {
            Issue.record("expected .modify with an ApiClientError, got \(String(describing: error))")
            return
        }
        #expect(!invalid.message.contains("s3cret"))
        #expect(invalid.message.contains("page=2"))
        #expect(!String(reflecting: error).contains("s3cret"))
    }
}
