import Foundation
import Testing
@testable import SwiftApiDsl

@Suite struct CredentialRefresherTests {
    /// Counts refreshes; each one waits until `release` is called, so requests pile up behind it.
    final class Server: Sendable {
        private struct State {
            var generation = 1
            var gate: CheckedContinuation<Void, Never>?
            var released = false
            var refreshes = 0
            var failure: Error?
        }
        private let state = Locked(State())

        var refreshes: Int { state.withLock { $0.refreshes } }

        func fail(with error: Error?) { state.withLock { $0.failure = error } }

        func refresh(_ expired: String) async throws -> String {
            await withCheckedContinuation { continuation in
                let open = state.withLock { state in
                    if !state.released { state.gate = continuation }
                    return state.released
                }
                if open { continuation.resume() }
            }
            return try state.withLock { state in
                state.refreshes += 1
                if let failure = state.failure { throw failure }
                state.generation += 1
                return "token-\(state.generation)"
            }
        }

        func release() {
            let gate = state.withLock { state in
                state.released = true
                defer { state.gate = nil }
                return state.gate
            }
            gate?.resume()
        }
    }

    @Test func concurrentRejectionsShareOneRefresh() async throws {
        let server = Server()
        let refresher = CredentialRefresher<String>(refresh: server.refresh)
        let replacements = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await refresher.replacement(for: "token-1") } }
            try await Task.sleep(nanoseconds: 50_000_000)
            server.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(replacements == Array(repeating: "token-2", count: 50))
        #expect(server.refreshes == 1)
    }

    @Test func aLateRejectionOfARefreshedCredentialGetsTheNewOneWithoutARefresh() async throws {
        let server = Server()
        server.release()
        let refresher = CredentialRefresher<String>(refresh: server.refresh)
        #expect(try await refresher.replacement(for: "token-1") == "token-2")
        #expect(try await refresher.replacement(for: "token-1") == "token-2")
        #expect(refresher.current("token-1") == "token-2")
        #expect(refresher.current("token-2") == "token-2")
        #expect(server.refreshes == 1)
        // The new credential expiring in turn is refreshed again.
        #expect(try await refresher.replacement(for: "token-2") == "token-3")
        #expect(server.refreshes == 2)
    }

    @Test func aFailingRefreshFailsEveryWaiterAndTheNextRejectionTriesAgain() async throws {
        struct RefreshFailed: Error, Equatable {}
        let server = Server()
        server.fail(with: RefreshFailed())
        let refresher = CredentialRefresher<String>(refresh: server.refresh)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do { _ = try await refresher.replacement(for: "token-1"); return false } catch { return error is RefreshFailed }
                }
            }
            try? await Task.sleep(nanoseconds: 50_000_000)
            server.release()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes == Array(repeating: true, count: 10))
        #expect(server.refreshes == 1)
        server.fail(with: nil)
        #expect(try await refresher.replacement(for: "token-1") == "token-2")
        #expect(server.refreshes == 2)
    }

    @Test func cancellingTheRequestThatStartedTheRefreshDoesNotCancelIt() async throws {
        let server = Server()
        let refresher = CredentialRefresher<String>(refresh: server.refresh)
        let first = Task { try await refresher.replacement(for: "token-1") }
        try await Task.sleep(nanoseconds: 20_000_000)
        let second = Task { try await refresher.replacement(for: "token-1") }
        first.cancel()
        try await Task.sleep(nanoseconds: 20_000_000)
        server.release()
        #expect(try await second.value == "token-2")
        #expect(server.refreshes == 1)
    }
}
