#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslCache

/// The HTTP cache's rules against the test server's `/cache/` routes (routes_cache.py), whose
/// counter proves whether a request reached the server.
@Suite struct CacheWireTests {
    struct Stats: Decodable, Equatable {
        let requests: Int
        let conditional: Int
        let notModified: Int
    }

    struct Answer: Decodable, Equatable {
        let requests: Int
        let authorization: String?
        let language: String?
    }

    /// A fresh key, a client with a memory cache that asks for the resource with `query`, and
    /// the resource's path.
    static func setUp(_ query: [String: String]) throws -> (client: ApiClient, path: String, key: String) {
        let key = UUID().uuidString
        return (try TestServer.client().cache(.memory()).queryItems(query), "cache/\(key)/doc", key)
    }

    static func stats(_ key: String) async throws -> Stats {
        try await TestServer.client().get("cache-stats/\(key)").perform()
    }

    @Test func aMaxAgeResponseIsServedAgainWithoutReachingTheServer() async throws {
        let (client, path, key) = try Self.setUp(["cc": "max-age=60"])
        let first: Response<Answer> = try await client.get(path).perform()
        let second: Response<Answer> = try await client.get(path).perform()
        #expect(first.source == .network)
        #expect(second.source == .stored)
        #expect(second.body == first.body)
        #expect(try await Self.stats(key) == Stats(requests: 1, conditional: 0, notModified: 0))
    }

    @Test func noStoreIsNeverServedFromTheCache() async throws {
        let (client, path, key) = try Self.setUp(["cc": "no-store", "etag": "n"])
        let first: Answer = try await client.get(path).perform()
        let second: Answer = try await client.get(path).perform()
        #expect(first.requests == 1)
        #expect(second.requests == 2)
        #expect(try await Self.stats(key) == Stats(requests: 2, conditional: 0, notModified: 0))
    }

    @Test func aStaleResponseIsRevalidatedAndTheServers304ServesTheStoredBody() async throws {
        // Age 120 over a lifetime of 60: stale on arrival.
        let (client, path, key) = try Self.setUp(["cc": "max-age=60", "age": "120", "etag": "v1"])
        let first: Response<Answer> = try await client.get(path).perform()
        let second: Response<Answer> = try await client.get(path).perform()
        #expect(second.statusCode == 200)
        #expect(second.source == .revalidated)
        #expect(second.body == first.body)
        #expect(try await Self.stats(key) == Stats(requests: 2, conditional: 1, notModified: 1))
    }

    @Test func lastModifiedAloneRevalidatesWithIfModifiedSince() async throws {
        let (client, path, key) = try Self.setUp(["lm": "1"])
        _ = try await client.get(path).perform()
        #expect(try await client.get(path).perform().source == .revalidated)
        #expect(try await Self.stats(key) == Stats(requests: 2, conditional: 1, notModified: 1))
    }

    @Test func mustRevalidateForbidsAStaleAnswerThatMaxStaleWouldAllow() async throws {
        let (lenient, lenientPath, lenientKey) = try Self.setUp(["cc": "max-age=60", "age": "120", "etag": "s"])
        _ = try await lenient.get(lenientPath).perform()
        #expect(try await lenient.get(lenientPath).header("Cache-Control", "max-stale=3600").perform().source == .stored)
        #expect(try await Self.stats(lenientKey).requests == 1)

        let (strict, strictPath, strictKey) = try Self.setUp(["cc": "max-age=60, must-revalidate", "age": "120", "etag": "s"])
        _ = try await strict.get(strictPath).perform()
        #expect(try await strict.get(strictPath).header("Cache-Control", "max-stale=3600").perform().source == .revalidated)
        #expect(try await Self.stats(strictKey) == Stats(requests: 2, conditional: 1, notModified: 1))
    }

    @Test func expiresCountsFromTheServersDate() async throws {
        let (fresh, freshPath, freshKey) = try Self.setUp(["expires": "60"])
        _ = try await fresh.get(freshPath).perform()
        #expect(try await fresh.get(freshPath).perform().source == .stored)
        #expect(try await Self.stats(freshKey).requests == 1)

        for expires in ["-10", "invalid"] {
            let (stale, stalePath, staleKey) = try Self.setUp(["expires": expires, "etag": "x"])
            _ = try await stale.get(stalePath).perform()
            #expect(try await stale.get(stalePath).perform().source == .revalidated, "Expires \(expires)")
            #expect(try await Self.stats(staleKey).requests == 2)
        }
    }

    @Test func theAgeTheServerSendsCountsAgainstTheLifetime() async throws {
        let (young, youngPath, youngKey) = try Self.setUp(["cc": "max-age=60", "age": "30"])
        _ = try await young.get(youngPath).perform()
        let hit = try await young.get(youngPath).perform()
        #expect(hit.source == .stored)
        #expect(Int(hit.headerFields["Age"] ?? "") ?? 0 >= 30)
        #expect(try await Self.stats(youngKey).requests == 1)

        let (old, oldPath, oldKey) = try Self.setUp(["cc": "max-age=60", "age": "61"])
        _ = try await old.get(oldPath).perform()
        #expect(try await old.get(oldPath).perform().source == .network)
        #expect(try await Self.stats(oldKey).requests == 2)
    }

    @Test func varyKeepsAnswersForDifferentLanguagesApart() async throws {
        let (client, path, key) = try Self.setUp(["cc": "max-age=60", "vary": "Accept-Language"])
        let english: Answer = try await client.get(path).header("Accept-Language", "en").perform()
        let again = try await client.get(path).header("Accept-Language", "en").perform()
        let french: Answer = try await client.get(path).header("Accept-Language", "fr").perform()
        #expect(english.language == "en")
        #expect(again.source == .stored)
        #expect(french.language == "fr")
        #expect(try await Self.stats(key).requests == 2)
    }

    @Test func anAuthorizedAnswerIsKeptOnlyWhenAllowedAndOnlyForItsOwnCredentials() async throws {
        let (plain, plainPath, plainKey) = try Self.setUp(["cc": "max-age=60"])
        _ = try await plain.get(plainPath).bearer("alice").perform()
        #expect(try await plain.get(plainPath).bearer("alice").perform().source == .network)
        #expect(try await Self.stats(plainKey).requests == 2)

        let (client, path, key) = try Self.setUp(["cc": "private, max-age=60"])
        _ = try await client.get(path).bearer("alice").perform()
        let alice: Response<Answer> = try await client.get(path).bearer("alice").perform()
        let bob: Response<Answer> = try await client.get(path).bearer("bob").perform()
        #expect(alice.source == .stored)
        #expect(alice.body.authorization == "Bearer alice")
        #expect(bob.source == .network)
        #expect(bob.body.authorization == "Bearer bob")
        #expect(try await Self.stats(key).requests == 2)
    }

    @Test func aBodyCutMidWayIsNotStored() async throws {
        let (client, path, key) = try Self.setUp(["cc": "max-age=60", "cut-once": "1"])
        await #expect(throws: RequestError.self) { try await client.get(path).perform() }
        let whole: Response<Answer> = try await client.get(path).perform()
        #expect(whole.source == .network)
        #expect(whole.body.requests == 2)
        #expect(try await client.get(path).perform().source == .stored)
        #expect(try await Self.stats(key).requests == 2)
    }

    @Test func aSuccessfulPostRemovesTheStoredAnswerOfItsURL() async throws {
        let (client, path, key) = try Self.setUp(["cc": "max-age=60"])
        _ = try await client.get(path).perform()
        _ = try await client.post(path).perform()
        let after: Answer = try await client.get(path).perform()
        #expect(after.requests == 3)
        #expect(try await Self.stats(key).requests == 3)
    }

    @Test func aCallThatReloadsIgnoringTheCacheReachesTheServer() async throws {
        let (client, path, key) = try Self.setUp(["cc": "max-age=60"])
        _ = try await client.get(path).perform()
        let reloaded: Answer = try await client.get(path).cachePolicy(.reloadIgnoringCache).perform()
        #expect(reloaded.requests == 2)
        #expect(try await client.get(path).perform().source == .stored)
        #expect(try await Self.stats(key).requests == 2)
    }

    @Test func observersSeeAMissThenAHitThenARevalidation() async throws {
        final class Outcomes: @unchecked Sendable {
            private let lock = NSLock()
            private var seen: [String] = []
            var all: [String] { lock.withLock { seen } }
            func observe(_ event: RequestEvent) {
                guard case .finished(let metrics) = event.kind else { return }
                lock.withLock { seen.append("\(metrics.source) \(metrics.statusCode ?? 0)") }
            }
        }
        let outcomes = Outcomes()
        let (client, path, key) = try Self.setUp(["cc": "max-age=60", "etag": "o"])
        let observed = client.observer(outcomes.observe)
        _ = try await observed.get(path).perform()
        _ = try await observed.get(path).perform()
        _ = try await observed.get(path).cachePolicy(.revalidate).perform()
        #expect(outcomes.all == ["network 200", "stored 200", "revalidated 304"])
        #expect(try await Self.stats(key) == Stats(requests: 2, conditional: 1, notModified: 1))
    }
}

/// A server cannot make a call read as a hit of the client's cache.
@Suite struct CacheStatusFromTheWireTests {
    /// The outcome is a value only the cache sets; the server's field reaches the caller as sent.
    @Test func aServersCacheStatusInTheCachesNameIsNotTheOutcome() async throws {
        let response = try await HttpBin.client().get("response-headers")
            .queryItems(["Cache-Status": "SwiftApiDsl; hit, ExampleCDN; hit"])
            .perform()
        #expect(response.source == .network)
        #expect(response.headerFields["Cache-Status"] == "SwiftApiDsl; hit, ExampleCDN; hit")
    }
}
#endif
