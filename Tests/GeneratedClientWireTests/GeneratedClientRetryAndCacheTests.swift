#if OpenAPI && AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GeneratedClient
import SwiftApiDsl
import SwiftApiDslCache
import SwiftApiDslOpenAPI
import Testing

/// The library's retries and HTTP cache under a generated client's operations.
@Suite struct GeneratedClientRetryAndCacheTests {
    /// Counts what a middleware saw, from concurrent exchanges.
    actor Counter {
        var statuses: [Int] = []
        func record(_ status: Int) { statuses.append(status) }
    }

    /// A gateway in front of Airflow that is unavailable once: the first exchange gets `503` with
    /// `Retry-After: 0` without reaching Airflow, later ones go through. The client's middlewares
    /// run inside its retries, so the retry policy sends the operation again.
    static func unavailableOnce(_ counter: Counter) -> Middleware {
        Middleware("unavailable once") { request, next in
            if await counter.statuses.isEmpty {
                await counter.record(503)
                return TransportResponse(statusCode: 503, headerFields: ["Retry-After": "0"])
            }
            let response = try await next(request)
            await counter.record(response.statusCode)
            return response
        }
    }

    @Test(arguments: Engine.allCases)
    func unavailableAnswerIsRetriedAndTheOperationSucceeds(engine: Engine) async throws {
        let counter = Counter()
        let client = try await engine.generatedClient {
            $0.retryPolicy(RetryPolicy(maxAttempts: 3, initialDelay: 0.01, jitter: 0)).middleware(Self.unavailableOnce(counter))
        }
        let pools = try await client.getPools(query: .init(limit: 1, poolNamePattern: "default_pool")).ok.body.json
        #expect(pools.pools.map(\.name) == ["default_pool"])
        #expect(await counter.statuses == [503, 200])
    }

    @Test(arguments: Engine.allCases)
    func withoutRetriesTheGeneratedClientSeesTheUndocumented503(engine: Engine) async throws {
        let counter = Counter()
        let client = try await engine.generatedClient { $0.middleware(Self.unavailableOnce(counter)) }
        let output = try await client.getPools(query: .init(limit: 1))
        guard case .undocumented(statusCode: 503, _) = output else {
            Issue.record("expected the undocumented 503, got \(output)")
            return
        }
        #expect(await counter.statuses == [503])
    }

    /// nginx (Scripts/lib/nginx.sh) serves files under /openapi/ as JSON fresh for 60 s.
    static func servedPools(_ names: [String], at folder: String) throws -> URL {
        guard let root = ProcessInfo.processInfo.environment["NGINX_ROOT"],
              let url = ProcessInfo.processInfo.environment["NGINX_URL"].flatMap(URL.init(string:)) else {
            throw Airflow.MissingServer()
        }
        let file = URL(fileURLWithPath: root).appendingPathComponent("openapi/\(folder)/api/v2/pools")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let pools = names.map {
            #"{"name": "\#($0)", "slots": 1, "include_deferred": false, "occupied_slots": 0, "running_slots": 0, "queued_slots": 0, "scheduled_slots": 0, "open_slots": 1, "deferred_slots": 0}"#
        }
        try Data(#"{"pools": [\#(pools.joined(separator: ", "))], "total_entries": \#(names.count)}"#.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.deletingLastPathComponent().path)
        return url.appendingPathComponent("openapi/\(folder)")
    }

    /// A session configuration that neither sends nor stores cookies.
    static func withoutCookies() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        return configuration
    }

    @Test(arguments: Engine.allCases)
    func freshAnswerIsServedFromTheCacheWithoutTheNetwork(engine: Engine) async throws {
        let folder = UUID().uuidString
        let serverURL = try Self.servedPools(["first"], at: folder)
        let counter = Counter()
        // The cache keeps the answers of different cookie sessions apart, and the process's shared
        // cookie jar is shared with the other suites, whose servers (Airflow, Label Studio) set
        // cookies for 127.0.0.1 at any moment: over URLSession the test sends from a session of its
        // own, without cookies, so that what it checks is the cache and not its neighbours.
        let base: ApiClient = switch engine {
        case .urlSession: ApiClient(transport: URLSessionTransport(configuration: Self.withoutCookies()), baseUrl: serverURL)
        case .asyncHTTPClient: try engine.apiClient(baseUrl: serverURL)
        }
        let api = base
            .cache(.memory(limit: 1 << 20))
            .middleware(Middleware("network") { request, next in
                let response = try await next(request)
                await counter.record(response.statusCode)
                return response
            })
        let client = Client(serverURL: serverURL, transport: ApiClientTransport(api))
        #expect(try await client.getPools(query: .init(limit: 5)).ok.body.json.pools.map(\.name) == ["first"])
        _ = try Self.servedPools(["second"], at: folder) // the file changes; the stored answer is still fresh
        // What another suite's server does meanwhile: a cookie for the same host in the shared jar.
        // Removed at the end: it would move every later call of this process over URLSession.shared
        // to 127.0.0.1 into another cookie session of the caches that key on it.
        let neighbour = HTTPCookie(properties: [
            .name: "neighbour", .value: UUID().uuidString, .domain: serverURL.host ?? "127.0.0.1", .path: "/",
        ])!
        HTTPCookieStorage.shared.setCookie(neighbour)
        defer { HTTPCookieStorage.shared.deleteCookie(neighbour) }
        #expect(try await client.getPools(query: .init(limit: 5)).ok.body.json.pools.map(\.name) == ["first"])
        #expect(await counter.statuses == [200])
        // Another query is another URL: the network again, and the new file.
        #expect(try await client.getPools(query: .init(limit: 6)).ok.body.json.pools.map(\.name) == ["second"])
        #expect(await counter.statuses == [200, 200])
    }
}
#endif
