import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Refresh on 401 over a real socket: the test server's `/auth/<key>/protected` accepts only the
/// key's current token, and `/auth/<key>/refresh` makes the next one current.
@Suite struct RefreshWireTests {
    struct Token: Decodable, Equatable, Sendable { let token: String }
    struct Stats: Decodable, Equatable, Sendable { let requests: Int; let refreshes: Int }

    /// Where the app keeps its token.
    actor TokenStore {
        private(set) var token = "token-1"
        func store(_ token: String) { self.token = token }
    }

    @Test func fiftyConcurrentRefusalsMakeOneRefreshAndFiftySuccesses() async throws {
        let key = UUID().uuidString
        let server = try TestServer.client()
        let store = TokenStore()
        // The first token goes stale before any request is sent: every one of them is refused.
        _ = try await server.post("auth/\(key)/refresh").perform(as: Token.self)
        let client = try TestServer.client()
            .httpStatusCodeRange()
            .authentication(token: { await store.token }, refresh: { _ in
                // Wait until all 50 first attempts reached the server, so that none of them
                // starts late with the renewed token (which would be right, but not countable).
                var polls = 0
                while try await server.get("auth-stats/\(key)").perform(as: Stats.self).requests < 50, polls < 1_000 {
                    polls += 1
                    try await Task.sleep(nanoseconds: 10_000_000)
                }
                let renewed = try await server.post("auth/\(key)/refresh").perform(as: Token.self).token
                await store.store(renewed)
                return renewed
            })
        let answers = try await withThrowingTaskGroup(of: Token.self) { group in
            for _ in 0..<50 { group.addTask { try await client.get("auth/\(key)/protected").perform(as: Token.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers == Array(repeating: Token(token: "token-3"), count: 50))
        // One refresh by the test to make the first token stale, one by the client.
        #expect(try await server.get("auth-stats/\(key)").perform(as: Stats.self) == Stats(requests: 100, refreshes: 2))
    }

    @Test func aTokenRefusedAgainAfterTheRefreshFailsAsValidate() async throws {
        let key = UUID().uuidString
        let server = try TestServer.client()
        let client = try TestServer.client()
            .httpStatusCodeRange()
            .authentication(token: { "wrong" }, refresh: { _ in "still-wrong" })
        let error = await #expect(throws: RequestError.self) { try await client.get("auth/\(key)/protected").perform() }
        #expect(error?.statusCode == 401)
        #expect(try await server.get("auth-stats/\(key)").perform(as: Stats.self) == Stats(requests: 2, refreshes: 0))
    }
}
