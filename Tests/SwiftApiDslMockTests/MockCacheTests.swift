import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// A client's HTTP cache works on a mock as on the wire: a test can pin what its app caches.
@Suite struct MockCacheTests {
    @Test func aFreshStubbedAnswerIsServedFromTheCacheAndTheMockRecordsOneRequest() async throws {
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).cache(.memory()).mocked()
        try mock.stub(.get, "todos/1", body: ["id": 1], headers: ["Cache-Control": "max-age=60"])
        let first = try await mock.get("todos/1").perform()
        let second = try await mock.get("todos/1").perform()
        #expect(first.cacheOutcome == .network)
        #expect(second.cacheOutcome == .hit)
        #expect(second.body == first.body)
        #expect(mock.recordedRequests(method: .get, path: "todos/1").count == 1)
    }

    @Test func aStubThatAnswers304RevalidatesTheStoredBody() async throws {
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).cache(.memory()).mocked()
        mock.stub(.get, "todos/1", respond: { request in
            if request.headers["If-None-Match"] == "\"1\"" {
                return .response(request.urlRequest, statusCode: 304, headers: ["ETag": "\"1\""])
            }
            return .response(request.urlRequest, body: ["id": 1], headers: ["ETag": "\"1\""])
        })
        _ = try await mock.get("todos/1").perform()
        let revalidated = try await mock.get("todos/1").perform()
        #expect(revalidated.statusCode == 200)
        #expect(revalidated.cacheOutcome == .revalidated)
        #expect(try JSONDecoder().decode([String: Int].self, from: revalidated.body) == ["id": 1])
        #expect(mock.recordedRequests(path: "todos/1").map { $0.headers["If-None-Match"] } == [nil, "\"1\""])
    }
}
