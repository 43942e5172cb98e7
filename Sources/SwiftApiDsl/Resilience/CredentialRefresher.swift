/// Refreshes a credential once for any number of requests that found it expired.
///
/// Requests call ``replacement(for:)`` with the credential they were rejected with. The first
/// starts a refresh; every request that arrives while it runs waits for the same refresh; a
/// request rejected with a credential that was already refreshed gets the newer one at once,
/// without a refresh of its own. A failing refresh fails every request waiting for it, and the
/// next rejection starts a new refresh. The refresh runs in a task of its own, so cancelling the
/// request that started it does not cancel it for the others, and a waiter that is cancelled
/// stops waiting at once.
///
/// A request sent **by the refresh itself** (its own call through the same client, refused)
/// never waits for the refresh it belongs to: ``replacement(for:)`` returns `nil` for it, and
/// that request fails like any refused request, which fails the refresh.
final class CredentialRefresher<Credential: Sendable & Equatable>: Sendable {
    typealias Waiter = CheckedContinuation<Credential, any Error>

    struct State {
        /// The credential being refreshed, while a refresh runs.
        var refreshing: Credential?
        /// Requests waiting for the refresh in flight.
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
        /// Credentials already refreshed, newest last; a few are kept for requests that were slow.
        var expired: [Credential] = []
        /// The credential the last refresh gave.
        var latest: Credential?
    }

    /// How many refreshed credentials are remembered.
    private static var memory: Int { 8 }

    private let refresh: @Sendable (Credential) async throws -> Credential
    let state = Locked(State())

    /// A refresher that turns an expired credential into a new one with `refresh`.
    init(refresh: @escaping @Sendable (_ expired: Credential) async throws -> Credential) {
        self.refresh = refresh
    }

    /// The credential to use instead of `credential`, if it was refreshed already; otherwise `credential`.
    func current(_ credential: Credential) -> Credential {
        state.withLock { state in
            state.expired.contains(credential) ? state.latest ?? credential : credential
        }
    }

    /// The credential to replay a request with that was rejected with `used`; `nil` when the
    /// request was sent by this refresher's own refresh, which must not wait for itself.
    func replacement(for used: Credential) async throws -> Credential? {
        if RefreshScope.running.contains(ObjectIdentifier(self)) { return nil }
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        // The refresh task resumes waiters after letting the lock go; see `Locked.synchronize()`.
        defer { state.synchronize() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: Waiter) in
                let now: Result<Credential, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.refreshing == nil {
                        if state.expired.contains(used), let latest = state.latest { return .success(latest) }
                        state.refreshing = used
                        start(refreshing: used)
                    }
                    state.waiters[id] = waiter
                    return nil
                }
                if let now { waiter.resume(with: now) }
            }
        } onCancel: {
            // The refresh goes on for the others; this request stops waiting now.
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Runs the refresh in a task of its own, marked as this refresher's so that its own
    /// requests do not wait for it.
    private func start(refreshing used: Credential) {
        let scope = RefreshScope.running.union([ObjectIdentifier(self)])
        Task { [refresh] in
            do {
                self.finish(refreshing: used, with: .success(try await RefreshScope.$running.withValue(scope) { try await refresh(used) }))
            } catch {
                self.finish(refreshing: used, with: .failure(error))
            }
        }
    }

    private func finish(refreshing expired: Credential, with result: Result<Credential, any Error>) {
        let waiters = state.withLock { state in
            state.refreshing = nil
            defer { state.waiters = [:] }
            guard case .success(let renewed) = result else { return state.waiters.values }
            state.expired.removeAll { $0 == expired }
            state.expired.append(expired)
            if state.expired.count > Self.memory { state.expired.removeFirst() }
            state.latest = renewed
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}

/// The refreshers whose refresh the current task is running, so that a request sent from a
/// refresh is recognised by its own refresher, whatever client it goes through.
enum RefreshScope {
    @TaskLocal static var running: Set<ObjectIdentifier> = []
}
