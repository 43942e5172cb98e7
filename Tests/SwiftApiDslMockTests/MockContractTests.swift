import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// The documented contract: creating a mock, the default answer, `resultProvider`, `mocked()`.
@Suite struct MockContractTests {
    struct Profile: Codable, Equatable, Sendable {
        let name: String
    }

    @Test func freshMockAnswersEveryRequestWithAnEmpty200() async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        let response = try await mock.client.post("anything/at/all", body: ["a": 1]).perform()
        #expect(response.httpResponse.statusCode == 200)
        #expect(response.body.isEmpty)
        #expect(response.httpResponse.url == URL(string: "https://example.com/api/anything/at/all"))
    }

    @Test func defaultAnswerDoesNotDecodeIntoAModelButDoesIntoEmptyResponse() async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        let error = await #expect(throws: RequestError.self) {
            let _: Profile = try await mock.get("user/profile").perform()
        }
        guard case .fatal(.decoding(let expectedType, _, let response, _)) = error else {
            Issue.record("expected a decoding failure, got \(String(describing: error))")
            return
        }
        #expect(expectedType == "Profile")
        #expect(response.httpResponse.statusCode == 200)
        let empty: EmptyResponse = try await mock.get("user/profile").perform()
        #expect(empty == EmptyResponse())
    }

    @Test func documentedResultProviderAnswersPerMethodAndPath() async throws {
        let mockedClient = ApiClientMock(baseUrl: Fixtures.baseUrl)
        let profile = Profile(name: "Ada")
        let someData = Data("custom".utf8)
        // The documented snippet, with `request` spelled `urlRequest`.
        mockedClient.resultProvider = { urlRequest in
            guard let url = urlRequest.url else { return nil }
            if url.path.contains("user/profile") {
                if urlRequest.httpMethod == "GET" {
                    return .response(urlRequest, body: profile)
                }
                if urlRequest.httpMethod == "POST" {
                    return .failure(.transport(urlRequest, Marker(id: 1)))
                }
                if urlRequest.httpMethod == "PUT" {
                    let httpResponse = HTTPURLResponse(url: url, statusCode: 201, httpVersion: nil, headerFields: ["CustomHeader": "8"])
                    return .success(.init(body: someData, httpResponse: httpResponse!))
                }
            }
            let httpResponse = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)
            return .success(Response(body: Data(), httpResponse: httpResponse!))
        }

        let fetched: Profile = try await mockedClient.get("user/profile").perform()
        #expect(fetched == profile)

        let error = await #expect(throws: RequestError.self) { try await mockedClient.post("user/profile").perform() }
        guard case .transport(_, let underlying) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(underlying as? Marker == Marker(id: 1))

        let put = try await mockedClient.put("user/profile").perform()
        #expect(put.httpResponse.statusCode == 201)
        #expect(put.httpResponse.value(forHTTPHeaderField: "CustomHeader") == "8")
        #expect(put.body == someData)

        let other = try await mockedClient.get("elsewhere").perform()
        #expect(other.httpResponse.statusCode == 200)
        #expect(other.body.isEmpty)
    }

    @Test func resultProviderCanBeReplacedAndResetBetweenRequests() async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.resultProvider = { .response($0, statusCode: 201) }
        #expect(try await mock.get().perform().httpResponse.statusCode == 201)
        mock.resultProvider = { .response($0, statusCode: 202) }
        #expect(try await mock.get().perform().httpResponse.statusCode == 202)
        mock.resultProvider = { _ in nil }
        #expect(try await mock.get().perform().httpResponse.statusCode == 200)
        mock.resultProvider = nil
        #expect(mock.resultProvider == nil)
        #expect(try await mock.get().perform().httpResponse.statusCode == 200)
    }

    @Test func mockedCopyKeepsModifiersAndAuthentication() async throws {
        let client = ApiClient(baseUrl: Fixtures.baseUrl)
            .header("X-App", "tests/1.0")
            .queryItem(name: "lang", "fr")
            .authentication(.bearer("secret-token"))
        let mock = client.mocked()

        try await mock.get("me").perform()
        try await mock.get("public", bypassAuth: true).perform()

        let recorded = mock.recordedRequests
        #expect(recorded.count == 2)
        #expect(recorded[0].header("X-App") == "tests/1.0")
        #expect(recorded[0].header(.authorization) == "Bearer secret-token")
        #expect(recorded[0].url.absoluteString == "https://example.com/api/me?lang=fr")
        #expect(recorded[1].header("X-App") == "tests/1.0")
        #expect(recorded[1].header(.authorization) == nil)
        #expect(mock.client.baseUrl == client.baseUrl)
    }

    @Test func mockedCopyRunsAThrowingAuthenticationAsTheRealClientWould() async throws {
        let mock = ApiClient(baseUrl: Fixtures.baseUrl)
            .authentication { () async throws -> RequestModifier in throw Marker(id: 9) }
            .mocked()
        let error = await #expect(throws: RequestError.self) { try await mock.get("me").perform() }
        guard case .modify(_, let underlying) = error else {
            Issue.record("expected a modify error, got \(String(describing: error))")
            return
        }
        #expect(underlying as? Marker == Marker(id: 9))
        #expect(mock.recordedRequests.isEmpty)
    }

    @Test func mockNeverReachesTheNetworkEvenWhereARealClientIsRefused() async throws {
        let real = ApiClient(baseUrl: Fixtures.closedPortUrl)
        let refused = await #expect(throws: RequestError.self) { try await real.get("todos").perform() }
        #expect(refused?.stage == "transport")

        let mock = real.mocked()
        try mock.stub(.get, "todos", body: [Fixtures.todo.title])
        let titles: [String] = try await mock.get("todos").perform()
        #expect(titles == ["Buy milk"])
        let empty = try await mock.post("anything").perform()
        #expect(empty.httpResponse.statusCode == 200)
        #expect(mock.recordedRequests.map(\.url.absoluteString) == ["http://127.0.0.1:1/api/todos", "http://127.0.0.1:1/api/anything"])
    }

    @Test func requestStartersOfTheMockSendThroughItsClient() async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        try await mock.request(HttpMethod("PURGE"), "cache").perform()
        try await mock.get("a").perform()
        try await mock.post("b").perform()
        try await mock.put("c").perform()
        try await mock.patch("d").perform()
        try await mock.delete("e").perform()
        try await mock.head("f").perform()
        try await mock.options("g").perform()
        try await mock.client.get("h").perform()
        #expect(mock.recordedRequests.map(\.description) == [
            "PURGE https://example.com/api/cache", "GET https://example.com/api/a", "POST https://example.com/api/b",
            "PUT https://example.com/api/c", "PATCH https://example.com/api/d", "DELETE https://example.com/api/e",
            "HEAD https://example.com/api/f", "OPTIONS https://example.com/api/g", "GET https://example.com/api/h",
        ])
    }
}
