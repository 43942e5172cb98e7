#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslCache

/// The HTTP cache against nginx: its real `ETag`, `Last-Modified` and `304`, and the
/// `Cache-Control: max-age=60` it adds under `/cached/`. A middleware after the cache counts
/// the requests that reach the wire.
@Suite struct CacheNginxWireTests {
    /// Counts the requests that go past the cache.
    final class WireCount: @unchecked Sendable {
        private let trail = Trail()
        var value: Int { trail.all.count }
        var middleware: Middleware {
            Middleware("count") { request, next in
                self.trail.add(request.url?.path ?? "")
                return try await next(request)
            }
        }
    }

    @Test func aFileUnderCachedIsServedFromTheCacheEvenAfterItChanges() async throws {
        let name = "cached/\(UUID().uuidString).txt"
        try Nginx.write(Data("first".utf8), as: name)
        let wire = WireCount()
        let client = try Nginx.client().cache(.memory()).middleware(wire.middleware)
        #expect(try await client.get(name).perform().source == .network)
        try Nginx.write(Data("second".utf8), as: name)
        let again = try await client.get(name).perform()
        #expect(again.source == .stored)
        #expect(String(decoding: again.body, as: UTF8.self) == "first")
        #expect(wire.value == 1)
    }

    @Test func aFileWithoutFreshnessIsRevalidatedWithNginxsEntityTag() async throws {
        let name = "\(UUID().uuidString).txt"
        try Nginx.write(Data("version one".utf8), as: name)
        let wire = WireCount()
        let client = try Nginx.client().cache(.memory()).middleware(wire.middleware)
        let first = try await client.get(name).perform()
        let etag = try #require(first.headerFields["ETag"])
        let second = try await client.get(name).perform()
        #expect(second.statusCode == 200)
        #expect(second.source == .revalidated)
        #expect(second.headerFields["ETag"] == etag)
        #expect(String(decoding: second.body, as: UTF8.self) == "version one")
        // A new version (another size, so another ETag): nginx answers 200, and it is stored.
        try Nginx.write(Data("version two, longer".utf8), as: name)
        let third = try await client.get(name).perform()
        #expect(third.source == .network)
        #expect(String(decoding: third.body, as: UTF8.self) == "version two, longer")
        #expect(try await client.get(name).perform().source == .revalidated)
        #expect(wire.value == 4)
    }

    @Test func aDirectoryCacheServesASecondClientAsAfterARestart() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "cached/\(UUID().uuidString).json"
        try Nginx.write(Data(#"{"id": 3}"#.utf8), as: name)
        _ = try await Nginx.client().cache(.directory(folder)).get(name).perform()
        let wire = WireCount()
        let restarted = try Nginx.client().cache(.directory(folder)).middleware(wire.middleware)
        let answer: Response<[String: Int]> = try await restarted.get(name).perform()
        #expect(answer.source == .stored)
        #expect(answer.body == ["id": 3])
        #expect(wire.value == 0)
    }

    @Test func aHeadRequestIsAnsweredFromTheStoredGet() async throws {
        let name = "cached/\(UUID().uuidString).txt"
        try Nginx.write(Data("head me".utf8), as: name)
        let client = try Nginx.client().cache(.memory())
        _ = try await client.get(name).perform()
        let head = try await client.head(name).perform()
        #expect(head.source == .stored)
        #expect(head.headerFields["Content-Length"] == "7")
        #expect(head.body.isEmpty)
    }
}
#endif
