import Foundation
import SwiftApiDsl
#if canImport(Observation)
import Observation
#endif

extension Resource {
    /// Every state from now on, starting with the current one, in order. Each access makes a
    /// new sequence for one observer; any number may observe, and leave by ending their loop.
    ///
    /// What it emits: `.loading` when a load starts, then `.loaded(value)` or
    /// `.failed(error)` when it ends, `.idle` on ``invalidate()``, and after ``cancelLoading()``
    /// `.loaded(latestValue)` (or `.idle` when there is none). After a `304 Not Modified`,
    /// `.loaded` carries the value held before, not decoded again: a reload the server confirms
    /// emits `.loading`, `.loaded(sameValue)`.
    public var states: AsyncStream<State> {
        AsyncStream { continuation in
            let id = UUID()
            continuation.onTermination = { [weak self] _ in
                self?.storage.withLock { _ = $0.streams.removeValue(forKey: id) }
            }
            storage.withLock { storage in
                storage.streams[id] = continuation
                continuation.yield(storage.state)
            }
        }
    }

    /// Calls `handler` with the current state before returning, then with every state after it,
    /// in order, the same ones ``states`` emits; no task to own. It returns the function that
    /// ends the observation: call it, or let it go, to stop (the handler is not called again,
    /// except for a call already running on another thread, which finishes; calling it twice
    /// does nothing more). Keep it as long as you observe.
    ///
    /// ```swift
    /// stopObserving = todos.observe { [weak self] state in
    ///     DispatchQueue.main.async { self?.render(state) }
    /// }
    /// stopObserving?()
    /// ```
    /// Several handlers are told in one fixed order: each state goes to every handler in turn,
    /// in the order they were registered, before any is told of the next state; no two handlers
    /// of a resource run at once. A handler runs on the thread that changed the state (the
    /// caller's for the first call, unless another handler is running then: the first call
    /// follows it), never while the resource is locked: it may read the resource, start a load or
    /// cancel its own observation. For the main actor, hop onto it as above: the main queue runs
    /// the blocks in the order they came, so every screen sees the states in step (separate
    /// `Task { @MainActor in … }`s are not promised to). Capture weakly what the handler uses:
    /// the resource keeps the handler while the observation lasts.
    public func observe(_ handler: @escaping @Sendable (State) -> Void) -> @Sendable () -> Void {
        let id = UUID()
        storage.withLock { storage in
            storage.observers.append((id, handler))
            storage.undelivered.append((id, handler, storage.state))
        }
        deliver()
        let observation = ResourceObservation { [weak self] in
            self?.storage.withLock { storage in
                storage.observers.removeAll { $0.id == id }
                storage.undelivered.removeAll { $0.id == id }
            }
        }
        return { observation.cancel() }
    }

    /// Makes the calls to the handlers of ``observe(_:)`` queued under the lock, one at a time and
    /// in order, never under the lock; unless another thread is making them already, which makes
    /// those queued meanwhile before it stops.
    func deliver() {
        while let (handler, state) = storage.withLock({ storage -> (@Sendable (State) -> Void, State)? in
            guard !storage.isDelivering, !storage.undelivered.isEmpty else { return nil }
            storage.isDelivering = true
            let next = storage.undelivered.removeFirst()
            return (next.handler, next.state)
        }) {
            handler(state)
            storage.withLock { $0.isDelivering = false }
        }
    }

    // MARK: Observation

    /// Changes the storage under the lock, then tells Observation of what changed (``state``,
    /// ``latestValue``; a load joined or a cancel with nothing to cancel changes nothing) and
    /// hands the new states to the handlers of ``observe(_:)``, both once the lock is let go,
    /// since they may read the resource back. Observation hears of a change once it is made
    /// (whether anything changes is known only under the lock), so an `onChange` that reads the
    /// resource sees the new state.
    func mutate<Result>(_ change: (inout Storage) -> Result) -> Result {
        let (result, changed) = storage.withLock { storage in
            let result = change(&storage)
            defer { storage.changed = (false, false) }
            return (result, storage.changed)
        }
        #if canImport(Observation)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let registrar = registrar as? ObservationRegistrar {
            if changed.state { registrar.withMutation(of: self, keyPath: \.state) {} }
            if changed.latestValue { registrar.withMutation(of: self, keyPath: \.latestValue) {} }
        }
        #endif
        deliver()
        return result
    }

    func observeAccess<Member>(_ keyPath: KeyPath<Resource, Member>) {
        #if canImport(Observation)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let registrar = registrar as? ObservationRegistrar {
            registrar.access(self, keyPath: keyPath)
        }
        #endif
    }
}

#if canImport(Observation)
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Resource: Observable {}
#endif
