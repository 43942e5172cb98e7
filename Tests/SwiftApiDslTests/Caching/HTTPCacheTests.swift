import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl
@testable import SwiftApiDslCache

/// The cache's rules through a client, on a server that counts its requests.
@Suite struct HTTPCacheTests {
    @Test func aFreshResponseAnswersWithoutTheNetworkAndSaysSo() async throws {
        let clock = TestClock()
        let server = CountingServer(headers: ["Cache-Control": "max-age=60", "Date": httpDate(clock.now)])
        let (client, _) = ApiClient.cached(server, clock: clock)
        let first = try await client.get("doc").perform()
        #expect(first.source == .network)
        #expect(first.headerFields["Cache-Status"] == "SwiftApiDsl; fwd=uri-miss; stored")
        clock.advance(by: 30)
        let second = try await client.get("doc").perform()
        #expect(server.requests.count == 1)
        #expect(second.statusCode == 200)
        #expect(String(decoding: second.body, as: UTF8.self) == "payload")
        #expect(second.source == .stored)
        #expect(second.headerFields["Age"] == "30")
        #expect(second.headerFields["Cache-Status"] == "SwiftApiDsl; hit; ttl=30")
    }

    @Test func aStaleResponseIsRevalidatedAndA304BecomesTheStoredResponseWithItsHeaders() async throws {
        let clock = TestClock()
        let server = CountingServer { request, count in
            if count == 1 {
                return (200, ["Cache-Control": "max-age=60", "ETag": "\"v1\"", "Last-Modified": "Tue, 14 Nov 2023 10:00:00 GMT",
                              "X-Version": "1", "Content-Type": "application/json"], ResponseBody(Data(#"{"id":7}"#.utf8)))
            }
            return (304, ["Cache-Control": "max-age=120", "ETag": "\"v1\"", "X-Version": "2"], .empty)
        }
        let (client, _) = ApiClient.cached(server, clock: clock)
        _ = try await client.get("doc").perform()
        clock.advance(by: 61)
        struct Doc: Decodable, Equatable { let id: Int }
        let revalidated: Response<Doc> = try await client.get("doc").perform()
        #expect(server.requests.count == 2)
        #expect(server.requests[1].headerFields["If-None-Match"] == "\"v1\"")
        #expect(server.requests[1].headerFields["If-Modified-Since"] == "Tue, 14 Nov 2023 10:00:00 GMT")
        #expect(revalidated.statusCode == 200)
        #expect(revalidated.body == Doc(id: 7))
        #expect(revalidated.source == .revalidated)
        #expect(revalidated.headerFields["X-Version"] == "2")
        #expect(revalidated.headerFields["Content-Type"] == "application/json")
        // The 304's max-age=120 is the new lifetime, counted from the revalidation.
        clock.advance(by: 100)
        #expect(try await client.get("doc").perform().source == .stored)
        #expect(server.requests.count == 2)
    }

    @Test func aResponseWithOnlyAValidatorIsRevalidatedEveryTime() async throws {
        let clock = TestClock()
        let server = CountingServer(headers: ["ETag": "\"abc\""])
        let (client, _) = ApiClient.cached(server, clock: clock)
        #expect(try await client.get("doc").perform().source == .network)
        #expect(try await client.get("doc").perform().source == .revalidated)
        #expect(try await client.get("doc").perform().source == .revalidated)
        #expect(server.requests.map { $0.headerFields["If-None-Match"] } == [nil, "\"abc\"", "\"abc\""])
    }

    @Test func noStoreAndVaryStarAndNoFreshnessOrValidatorAreNotStored() async throws {
        for headers in [["Cache-Control": "no-store, max-age=60", "ETag": "\"a\""], ["Cache-Control": "max-age=60", "Vary": "*"],
                        ["Content-Type": "text/plain"], ["Cache-Control": "max-age=0"]] {
            let server = CountingServer(headers: headers)
            let (client, _) = ApiClient.cached(server, clock: TestClock())
            _ = try await client.get("doc").perform()
            let second = try await client.get("doc").perform()
            #expect(second.source == .network, "\(headers)")
            #expect(server.requests.count == 2)
            #expect(server.requests[1].headerFields["If-None-Match"] == nil)
        }
    }

    @Test func aNoCacheResponseIsStoredButRevalidatedBeforeEachUse() async throws {
        let server = CountingServer(headers: ["Cache-Control": "no-cache, max-age=600", "ETag": "\"n\""])
        let (client, _) = ApiClient.cached(server, clock: TestClock())
        _ = try await client.get("doc").perform()
        #expect(try await client.get("doc").perform().source == .revalidated)
        #expect(server.requests.count == 2)
    }

    @Test func theCallsPolicyRevalidatesReloadsOrAnswersOnlyFromTheStore() async throws {
        let server = CountingServer(headers: ["Cache-Control": "max-age=60", "ETag": "\"p\""])
        let (client, _) = ApiClient.cached(server, clock: TestClock())
        // Nothing stored: only-if-cached answers 504 without the network.
        let none = try await client.get("doc").cachePolicy(.onlyIfCached).perform()
        #expect(none.statusCode == 504)
        #expect(none.headerFields["Cache-Status"] == "SwiftApiDsl; fwd=miss; detail=only-if-cached")
        #expect(server.requests.isEmpty)
        _ = try await client.get("doc").perform()
        #expect(try await client.get("doc").cachePolicy(.onlyIfCached).perform().source == .stored)
        #expect(try await client.get("doc").cachePolicy(.revalidate).perform().source == .revalidated)
        #expect(server.requests[1].headerFields["Cache-Control"] == "no-cache")
        let reloaded = try await client.get("doc").cachePolicy(.reloadIgnoringCache).perform()
        #expect(reloaded.source == .network)
        #expect(server.requests[2].headerFields["If-None-Match"] == nil)
        #expect(server.requests[2].headerFields["Cache-Control"] == "no-store")
        // The client's policy, undone by the call's.
        let reloading = client.cachePolicy(.reloadIgnoringCache)
        #expect(try await reloading.get("doc").cachePolicy(.useCache).perform().source == .stored)
        #expect(server.requests.count == 3)
        // The static spelling is the same modifier.
        #expect(try await client.get("doc").modifier(.cachePolicy(.reloadIgnoringCache)).perform().source == .network)
    }

    @Test func varyMakesTheNamedRequestFieldsPartOfTheMatch() async throws {
        let server = CountingServer { request, _ in
            (200, ["Cache-Control": "max-age=60", "Vary": "Accept-Language"],
             ResponseBody(Data((request.headerFields["Accept-Language"] ?? "none").utf8)))
        }
        let (client, _) = ApiClient.cached(server, clock: TestClock())
        _ = try await client.get("doc").header("Accept-Language", "en").perform()
        let english = try await client.get("doc").header("Accept-Language", " en").perform()
        #expect(english.source == .stored)
        let french = try await client.get("doc").header("Accept-Language", "fr").perform()
        #expect(french.source == .network)
        #expect(french.headerFields["Cache-Status"] == "SwiftApiDsl; fwd=vary-miss; stored")
        #expect(String(decoding: french.body, as: UTF8.self) == "fr")
        let none = try await client.get("doc").perform()
        #expect(none.source == .network)
        #expect(server.requests.count == 3)
    }

    @Test func aResponseToCredentialsIsStoredOnlyWhenItAllowsItAndServedOnlyToTheSameCredentials() async throws {
        let plain = CountingServer(headers: ["Cache-Control": "max-age=60"])
        let (plainClient, _) = ApiClient.cached(plain, clock: TestClock())
        _ = try await plainClient.get("me").bearer("alice").perform()
        #expect(try await plainClient.get("me").bearer("alice").perform().source == .network)

        for allowing in ["private, max-age=60", "public, max-age=60", "max-age=60, must-revalidate", "max-age=60, s-maxage=60"] {
            let server = CountingServer { request, _ in
                (200, ["Cache-Control": allowing], ResponseBody(Data((request.headerFields["Authorization"] ?? "anonymous").utf8)))
            }
            let (client, _) = ApiClient.cached(server, clock: TestClock())
            _ = try await client.get("me").bearer("alice").perform()
            let again = try await client.get("me").bearer("alice").perform()
            #expect(again.source == .stored, "\(allowing)")
            let bob = try await client.get("me").bearer("bob").perform()
            #expect(bob.source == .network)
            #expect(String(decoding: bob.body, as: UTF8.self) == "Bearer bob")
            let anonymous = try await client.get("me").perform()
            #expect(String(decoding: anonymous.body, as: UTF8.self) == "anonymous")
            #expect(server.requests.count == 3)
        }
    }

    @Test func otherSecretHeadersPartitionTheStoreToo() async throws {
        let server = CountingServer { request, _ in
            (200, ["Cache-Control": "max-age=60"], ResponseBody(Data((request.headerFields["X-Api-Key"] ?? "-").utf8)))
        }
        let (client, _) = ApiClient.cached(server, clock: TestClock())
        _ = try await client.get("doc").header("X-Api-Key", "one").perform()
        #expect(try await client.get("doc").header("X-Api-Key", "one").perform().source == .stored)
        let other = try await client.get("doc").header("X-Api-Key", "two").perform()
        #expect(String(decoding: other.body, as: UTF8.self) == "two")
    }

    @Test func anUnsafeMethodThatSucceedsRemovesTheStoredResponseOfItsURL() async throws {
        let server = CountingServer { request, _ in
            switch request.method {
            case .get: (200, ["Cache-Control": "max-age=60"], ResponseBody(Data("list".utf8)))
            case .put: (500, [:], .empty)
            default: (201, ["Location": "/v1/todos/8"], .empty)
            }
        }
        let (client, _) = ApiClient.cached(server, clock: TestClock())
        _ = try await client.get("todos").perform()
        _ = try await client.get("todos/8").perform()
        // A failing PUT leaves it; a successful POST removes it and the Location it names.
        _ = try? await client.put("todos").perform()
        #expect(try await client.get("todos").perform().source == .stored)
        _ = try await client.post("todos").perform()
        #expect(try await client.get("todos").perform().source == .network)
        #expect(try await client.get("todos/8").perform().source == .network)
    }

    @Test func aBodyCutMidWayOrShorterThanAnnouncedIsNotStored() async throws {
        let cut = CountingServer { _, count in
            (200, ["Cache-Control": "max-age=60"], count == 1 ? cutBody(after: "half") : ResponseBody(Data("whole".utf8)))
        }
        let (client, _) = ApiClient.cached(cut, clock: TestClock())
        await #expect(throws: RequestError.self) { try await client.get("doc").perform() }
        #expect(try await client.get("doc").perform().source == .network)
        #expect(try await client.get("doc").perform().source == .stored)

        // A body the caller stops reading (past its size limit) is not stored either.
        let large = CountingServer(headers: ["Cache-Control": "max-age=60"])
        let (largeClient, _) = ApiClient.cached(large, clock: TestClock())
        await #expect(throws: RequestError.self) { try await largeClient.get("doc").maxResponseSize(3).perform() }
        #expect(try await largeClient.get("doc").perform().source == .network)

        let short = CountingServer(headers: ["Cache-Control": "max-age=60", "Content-Length": "100"])
        let (shortClient, _) = ApiClient.cached(short, clock: TestClock())
        _ = try await shortClient.get("doc").perform()
        #expect(try await shortClient.get("doc").perform().source == .network)
    }

    @Test func aHeadRequestIsAnsweredFromTheStoredGetWithoutItsBody() async throws {
        let server = CountingServer(headers: ["Cache-Control": "max-age=60", "X-Count": "3"])
        let (client, _) = ApiClient.cached(server, clock: TestClock())
        _ = try await client.get("doc").perform()
        let head = try await client.head("doc").perform()
        #expect(head.source == .stored)
        #expect(head.body.isEmpty)
        #expect(head.headerFields["X-Count"] == "3")
        #expect(server.requests.count == 1)
    }

    @Test func theCallersOwnConditionalRequestGoesThroughUntouched() async throws {
        let server = CountingServer(headers: ["Cache-Control": "max-age=60", "ETag": "\"e\""])
        let (client, _) = ApiClient.cached(server, clock: TestClock())
        _ = try await client.get("doc").perform()
        let own = try await client.get("doc").header("If-None-Match", "\"e\"").httpStatusCodeRange(200...304).perform()
        #expect(own.statusCode == 304)
        #expect(own.headerFields["Cache-Status"] == "SwiftApiDsl; fwd=request")
    }

    @Test func observersSeeTheOutcomeInTheMetrics() async throws {
        let observer = RecordingObserver()
        let server = CountingServer(headers: ["Cache-Control": "max-age=60", "ETag": "\"o\""])
        let clock = TestClock()
        let (client, _) = ApiClient.cached(server, clock: clock)
        let observed = client.observer(observer)
        _ = try await observed.get("doc").perform()
        _ = try await observed.get("doc").perform()
        clock.advance(by: 61)
        _ = try await observed.get("doc").perform()
        #expect(observer.metrics.map(\.source) == [.network, .stored, .revalidated])
        #expect(observer.metrics.map(\.statusCode) == [200, 200, 304])
        // A hit sends nothing, so there is no head event for it.
        #expect(observer.lines == ["prepared GET /v1/doc", "head 200", "finished 200 ok", "prepared GET /v1/doc", "finished 200 ok",
                                   "prepared GET /v1/doc", "head 304", "finished 304 ok"])
    }

    @Test func aMiddlewareBeforeTheCacheSeesEveryCallWithItsOutcomeAndOneAfterItOnlyTheNetwork() async throws {
        let server = CountingServer(headers: ["Cache-Control": "max-age=60"])
        let seen = Locked<[String]>([])
        let before = Middleware("before") { request, next in
            let response = try await next(request)
            seen.withLock { $0.append("before \(response.source)") }
            return response
        }
        let after = Middleware("after") { request, next in
            let response = try await next(request)
            seen.withLock { $0.append("after \(response.statusCode)") }
            return response
        }
        let client = ApiClient(transport: server, baseUrl: exampleBase).middleware(before).cache(.memory()).middleware(after)
        _ = try await client.get("doc").perform()
        _ = try await client.get("doc").perform()
        #expect(seen.withLock { $0 } == ["after 200", "before network", "before stored"])
    }

    @Test func removeAllEmptiesTheStore() async throws {
        let server = CountingServer(headers: ["Cache-Control": "max-age=60"])
        let (client, cache) = ApiClient.cached(server, clock: TestClock())
        _ = try await client.get("doc").perform()
        cache.removeAll()
        #expect(try await client.get("doc").perform().source == .network)
    }
}
