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

    /// Waits until `count` requests wait for `refresher`'s refresh in flight; gives up (failing
    /// the test) after 10 s.
    private func waitForWaiters(_ count: Int, on refresher: CredentialRefresher<String>,
                                sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = Date().addingTimeInterval(10)
        while refresher.waiting < count {
            guard Date() < deadline else {
                Issue.record("\(refresher.waiting) of \(count) requests waited for the refresh", sourceLocation: sourceLocation)
                return
            }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    @Test func concurrentRejectionsShareOneRefresh() async throws {
        let server = Server()
        let refresher = CredentialRefresher<String>(refresh: server.refresh)
        let replacements = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<50 { group.addTask { try await refresher.replacement(for: "token-1") } }
            try await waitForWaiters(50, on: refresher)
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
            try? await waitForWaiters(10, on: refresher)
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
        try await waitForWaiters(1, on: refresher)
        let second = Task { try await refresher.replacement(for: "token-1") }
        try await waitForWaiters(2, on: refresher)
        // A cancellation that reached the refresh would do so within `cancel()`.
        first.cancel()
        server.release()
        #expect(try await second.value == "token-2")
        #expect(server.refreshes == 1)
    }

    @Test func aWaiterCancelledDuringTheRefreshEndsAtOnceAndTheOthersGetTheNewCredential() async throws {
        let server = Server()
        let refresher = CredentialRefresher<String>(refresh: server.refresh)
        let first = Task { try await refresher.replacement(for: "token-1") }
        let second = Task { try await refresher.replacement(for: "token-1") }
        try await waitForWaiters(2, on: refresher)
        second.cancel()
        // The refresh is still held at its gate: the cancelled waiter ended without it.
        await #expect(throws: CancellationError.self) { try await second.value }
        #expect(refresher.waiting == 1)
        server.release()
        #expect(try await first.value == "token-2")
        #expect(server.refreshes == 1)
    }

    @Test func aRequestAlreadyCancelledDoesNotWaitNorStartARefresh() async throws {
        let server = Server()
        let refresher = CredentialRefresher<String>(refresh: server.refresh)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await refresher.replacement(for: "token-1")
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(refresher.waiting == 0)
        #expect(server.refreshes == 0)
    }

    @Test func theRefreshsOwnRefusedCallDoesNotWaitForItself() async throws {
        // The refresh's own call is refused in turn and asks the same refresher: it gets `nil`
        // (send no replay) at once instead of waiting for the refresh it belongs to.
        let inner = Locked<String??>(nil)
        let holder = Locked<CredentialRefresher<String>?>(nil)
        let refresher = CredentialRefresher<String> { expired in
            let own = try await holder.withLock { $0 }?.replacement(for: expired)
            inner.withLock { $0 = .some(own) }
            return "token-2"
        }
        holder.withLock { $0 = refresher }
        #expect(try await refresher.replacement(for: "token-1") == "token-2")
        #expect(inner.withLock { $0 } == .some(nil))
    }

    @Test func anotherRefresherInsideARefreshStillRefreshes() async throws {
        // Only the refresher whose refresh is running answers `nil`: a second client's refresher
        // used from inside the first refresh works as usual.
        let other = CredentialRefresher<String> { _ in "other-2" }
        let refresher = CredentialRefresher<String> { _ in
            let renewed = try await other.replacement(for: "other-1")
            return "token-2 after \(renewed ?? "nothing")"
        }
        #expect(try await refresher.replacement(for: "token-1") == "token-2 after other-2")
    }

    @Test func requestsArrivingAfterAFailedRefreshStartANewOne() async throws {
        struct RefreshFailed: Error {}
        let server = Server()
        server.fail(with: RefreshFailed())
        let refresher = CredentialRefresher<String>(refresh: server.refresh)
        let failing = Task { try await refresher.replacement(for: "token-1") }
        try await waitForWaiters(1, on: refresher)
        server.release()
        await #expect(throws: RefreshFailed.self) { try await failing.value }
        // New requests after the failure start a second refresh, which succeeds.
        server.fail(with: nil)
        let replacements = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<5 { group.addTask { try await refresher.replacement(for: "token-1") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(replacements.allSatisfy { $0 == "token-2" })
        #expect(server.refreshes == 2)
    }
}
