#if WIRE_SUITES
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

    /// Holds the client that a refresh sends its own call through: the client it belongs to.
    actor ClientHolder {
        var client: ApiClient?
        func hold(_ client: ApiClient) { self.client = client }
    }

    @Test(.timeLimit(.minutes(1)))
    func aRefreshWhoseOwnCallIsRefusedFailsEveryWaiterAtOnceAndTheClientStillWorks() async throws {
        // The refresh sends its call through the same authenticated client, and the server refuses
        // the refresh token (401, as simplejwt does): that call must not wait for the refresh it
        // belongs to. Before the fix, every request hung forever, cancellation included.
        let key = UUID().uuidString
        let server = try TestServer.client()
        let store = TokenStore()
        await store.store("stale")
        let holder = ClientHolder()
        let client = try TestServer.client()
            .httpStatusCodeRange()
            .authentication(token: { await store.token }, refresh: { _ in
                guard let client = await holder.client else { throw CancellationError() }
                return try await client.post("auth/\(key)/refresh-refused").perform(as: Token.self).token
            })
        await holder.hold(client)
        // Before the fix these calls never ended: the time limit fails the test instead of hanging.
        let errors = await withTaskGroup(of: RequestError?.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    do { _ = try await client.get("auth/\(key)/protected").perform(); return nil } catch { return error.asRequestError }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.count == 3)
        for error in errors {
            guard case .modify(_, let cause)? = error else {
                Issue.record("expected .modify, got \(String(describing: error))")
                continue
            }
            #expect((cause as? ApiClientError)?.code == .credentialRefreshFailed)
            #expect(error?.isAuthenticationFailure == true)
            // The refresh's own call failed with its own 401: that is what the waiters carry.
            let refreshCall = error?.underlyingError as? RequestError
            #expect(refreshCall?.statusCode == 401)
            #expect(refreshCall?.request?.url?.path == "/auth/\(key)/refresh-refused")
        }
        // Later requests on the same client still work once the app has a good token.
        let current = try await server.post("auth/\(key)/refresh").perform(as: Token.self).token
        await store.store(current)
        #expect(try await client.get("auth/\(key)/protected").perform(as: Token.self) == Token(token: "token-2"))
    }

    @Test(.timeLimit(.minutes(1)))
    func aRequestCancelledWhileItWaitsForARefreshEndsAtOnceAndTheRefreshGoesOn() async throws {
        let key = UUID().uuidString
        let server = try TestServer.client()
        let store = TokenStore()
        await store.store("stale")
        let refreshStarted = AsyncStream<Void>.makeStream()
        // The refresh is held until the test opens this gate, after the cancelled request ended:
        // a request that waited for the refresh would never end (the time limit fails the test).
        let gate = AsyncStream<Void>.makeStream()
        let client = try TestServer.client()
            .httpStatusCodeRange()
            .authentication(token: { await store.token }, refresh: { _ in
                refreshStarted.continuation.yield()
                var opened = gate.stream.makeAsyncIterator()
                await opened.next()
                let renewed = try await server.post("auth/\(key)/refresh").perform(as: Token.self).token
                await store.store(renewed)
                return renewed
            })
        let waiter = Task { try await client.get("auth/\(key)/protected").perform(as: Token.self) }
        var started = refreshStarted.stream.makeAsyncIterator()
        await started.next()
        waiter.cancel()
        let result = await waiter.result
        #expect((try? result.get()) == nil)
        if case .failure(let error) = result { #expect(error.asRequestError.isCancellation) }
        // The refresh was still held: it goes on now, and a later request gets its token
        // without a refresh of its own.
        #expect(try await server.get("auth-stats/\(key)").perform(as: Stats.self).refreshes == 0)
        gate.continuation.yield()
        gate.continuation.finish()
        #expect(try await client.get("auth/\(key)/protected").perform(as: Token.self) == Token(token: "token-2"))
        #expect(try await server.get("auth-stats/\(key)").perform(as: Stats.self).refreshes == 1)
    }
}
#endif
