/// Refreshes a credential once for any number of requests that found it expired.
///
/// Requests call ``replacement(for:)`` with the credential they were rejected with. The first
/// starts a refresh; every request that arrives while it runs waits for the same refresh; a
/// request rejected with a credential that was already refreshed gets the newer one at once,
/// without a refresh of its own. A failing refresh fails every request waiting for it, and the
/// next rejection starts a new refresh. The refresh runs in a task of its own, so cancelling the
/// request that started it does not cancel it for the others.
final class CredentialRefresher<Credential: Sendable & Equatable>: Sendable {
    private struct State {
        var inFlight: (expired: Credential, task: Task<Credential, Error>)?
        /// Credentials already refreshed, newest last; a few are kept for requests that were slow.
        var expired: [Credential] = []
        /// The credential the last refresh gave.
        var latest: Credential?
        /// Requests waiting for the refresh in flight.
        var waiting = 0
    }

    /// What a rejected request does next.
    private enum Step {
        case use(Credential)
        case wait(Task<Credential, Error>)
    }

    /// How many refreshed credentials are remembered.
    private static var memory: Int { 8 }

    private let refresh: @Sendable (Credential) async throws -> Credential
    private let state = Locked(State())

    /// A refresher that turns an expired credential into a new one with `refresh`.
    init(refresh: @escaping @Sendable (_ expired: Credential) async throws -> Credential) {
        self.refresh = refresh
    }

    /// How many requests are waiting for the refresh in flight (tests wait for them to gather).
    var waiting: Int { state.withLock { $0.waiting } }

    /// The credential to use instead of `credential`, if it was refreshed already; otherwise `credential`.
    func current(_ credential: Credential) -> Credential {
        state.withLock { state in
            state.expired.contains(credential) ? state.latest ?? credential : credential
        }
    }

    /// The credential to replay a request with that was rejected with `used`.
    func replacement(for used: Credential) async throws -> Credential {
        let step: Step = state.withLock { state in
            if let inFlight = state.inFlight {
                state.waiting += 1
                return .wait(inFlight.task)
            }
            if state.expired.contains(used), let latest = state.latest { return .use(latest) }
            let task = Task { [refresh] in
                do {
                    let renewed = try await refresh(used)
                    self.finish(refreshing: used, with: .success(renewed))
                    return renewed
                } catch {
                    self.finish(refreshing: used, with: .failure(error))
                    throw error
                }
            }
            state.inFlight = (used, task)
            state.waiting += 1
            return .wait(task)
        }
        switch step {
        case .use(let credential):
            return credential
        case .wait(let task):
            defer { state.withLock { $0.waiting -= 1 } }
            return try await task.value
        }
    }

    private func finish(refreshing expired: Credential, with result: Result<Credential, Error>) {
        state.withLock { state in
            state.inFlight = nil
            guard case .success(let renewed) = result else { return }
            state.expired.removeAll { $0 == expired }
            state.expired.append(expired)
            if state.expired.count > Self.memory { state.expired.removeFirst() }
            state.latest = renewed
        }
    }
}
