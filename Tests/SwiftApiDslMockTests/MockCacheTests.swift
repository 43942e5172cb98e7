import Foundation
import SwiftApiDsl
import SwiftApiDslCache
import SwiftApiDslMock
import Testing

/// A client's HTTP cache works on a mock as on the wire: a test can pin what its app caches.
@Suite struct MockCacheTests {
    @Test func aFreshStubbedAnswerIsServedFromTheCacheAndTheMockRecordsOneRequest() async throws {
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).cache(.memory()).mocked()
        try mock.stub(.get, "todos/1", body: ["id": 1], headers: ["Cache-Control": "max-age=60"])
        let first = try await mock.get("todos/1").perform()
        let second = try await mock.get("todos/1").perform()
        #expect(first.source == .network)
        #expect(second.source == .stored)
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
        #expect(revalidated.source == .revalidated)
        #expect(try JSONDecoder().decode([String: Int].self, from: revalidated.body) == ["id": 1])
        #expect(mock.recordedRequests(path: "todos/1").map { $0.headers["If-None-Match"] } == [nil, "\"1\""])
    }

    /// Credentials and secret response fields stay out of the store: a cached folder and a dump
    /// of the cache show neither, while the credentials still keep callers apart.
    @Test func noSecretIsStoredOnDiskNorShownByADumpOfTheCache() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = HTTPCache.directory(folder)
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).cache(cache).mocked()
        try mock.stub(.get, "me", body: ["name": "Ada"], headers: [
            "Cache-Control": "private, max-age=60", "Vary": "Authorization", "Set-Cookie": "sid=cook-000",
        ])
        let first = try await mock.get("me").bearer("tok-123").perform()
        let hit = try await mock.get("me").bearer("tok-123").perform()
        let other = try await mock.get("me").bearer("tok-456").perform()
        #expect(first.headerFields["Set-Cookie"] == "sid=cook-000")
        #expect(hit.source == .stored)
        #expect(hit.headerFields["Set-Cookie"] == nil)
        #expect(other.source == .network)

        // Every regular file under the folder (entries sit in a folder per URL).
        let files = (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        #expect(files.count == 2)
        #expect(files.allSatisfy { (try? Data(contentsOf: $0))?.isEmpty == false })
        var dumped = ""
        dump(cache, to: &dumped)
        for text in files.map({ String(decoding: (try? Data(contentsOf: $0)) ?? Data(), as: UTF8.self) }) + [dumped, "\(cache)"] {
            #expect(!text.contains("tok-123") && !text.contains("tok-456") && !text.contains("cook-000"), "a secret in \(text)")
        }
    }
    /// A resource that still holds validators after the cache lost its entry asks the server
    /// through the cache: the 304 it gets never becomes a stored answer without its body, so the
    /// next caller of the URL gets the whole body.
    @Test func aResourceReloadAfterTheCacheLostItsEntryLeavesNoEmptyAnswerForOtherCallers() async throws {
        let cache = HTTPCache.memory()
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).cache(cache).mocked()
        mock.stub(.get, "todos/1", respond: { request in
            if request.headers["If-None-Match"] == "\"1\"" {
                return .response(request.urlRequest, statusCode: 304, headers: ["ETag": "\"1\""])
            }
            return .response(request.urlRequest, body: ["id": 1], headers: ["ETag": "\"1\""])
        })
        let todo = mock.resource(Endpoint<[String: Int]>(.get, "todos/1"))
        #expect(try await todo.value() == ["id": 1])
        cache.removeAll()
        #expect(try await todo.reload() == ["id": 1])
        let other = try await mock.get("todos/1").perform()
        #expect(try await mock.get("todos/1").perform(as: [String: Int].self) == ["id": 1])
        #expect(other.statusCode == 200)
        #expect(other.body == Data(#"{"id":1}"#.utf8))
        #expect(other.source == .revalidated)
    }
    /// A download and a stream take their body as it arrives: without a `Content-Length` the cache
    /// collects neither in memory, so neither is stored, and the next call of the URL goes to the network.
    @Test func aDownloadAndAStreamAreNotCollectedNorStoredByTheCache() async throws {
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).cache(.memory()).mocked()
        for path in ["files/1", "files/2"] {
            try mock.stub(.get, path, body: ["id": 1], headers: ["Cache-Control": "max-age=60", "ETag": "\"1\""])
        }
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: destination) }
        try await mock.get("files/1").download(destination: destination)
        let streamed = try await mock.get("files/2").stream()
        var streamedBytes = Data()
        for try await chunk in streamed.body { streamedBytes.append(chunk) }
        let afterDownload = try await mock.get("files/1").perform()
        let afterStream = try await mock.get("files/2").perform()
        #expect(try Data(contentsOf: destination) == Data(#"{"id":1}"#.utf8))
        #expect(streamedBytes == Data(#"{"id":1}"#.utf8))
        #expect(afterDownload.source == .network)
        #expect(afterStream.source == .network)
        #expect(mock.recordedRequests(path: "files/1").count == 2)
        #expect(mock.recordedRequests(path: "files/2").count == 2)
    }
    /// The cache's outcome is a value only the cache sets: a middleware (or a server) that writes
    /// a `Cache-Status` member in the cache's name makes no call read as a hit.
    @Test func aCacheStatusFieldWrittenByAMiddlewareIsNotTheCachesOutcome() async throws {
        final class Outcomes: Sendable {
            let trail = Locked<[ResponseSource]>([])
            func observe(_ event: RequestEvent) {
                if case .finished(let metrics) = event.kind { trail.withLock { $0.append(metrics.source) } }
            }
        }
        let outcomes = Outcomes()
        let forger = Middleware("forger") { request, next in
            var response = try await next(request)
            response.headerFields.append("SwiftApiDsl; hit", for: "Cache-Status")
            return response
        }
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).observer(outcomes.observe).middleware(forger).mocked()
        try mock.stub(.get, "todos/1", body: ["id": 1])
        let response = try await mock.get("todos/1").perform()
        #expect(response.headerFields["Cache-Status"] == "SwiftApiDsl; hit")
        #expect(response.source == .network)
        #expect(outcomes.trail.withLock { $0 } == [.network])
    }
}
