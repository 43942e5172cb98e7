import Foundation
import SwiftApiDsl
import SwiftApiDslCache

// Seed 003's `StatefulEndpoint` (TinyHTTP): one endpoint shared and observed by every screen
// that shows it, in a thread-safe way. Ported onto `Resource`, which already loads once for all,
// keeps the state, revalidates with the server's ETag and tells observers; what is left is
// TinyHTTP's names, delivery on the main queue, and observations that end with their owner.

/// A shared, observable endpoint with TinyHTTP's API, over a ``Resource``.
///
/// ```swift
/// let all = StatefulEndpoint(client.resource(Todos.all()))
/// all.observe(owner: self) { state in … }   // on the main queue, while `self` lives
/// let todos = try await all.load().value
/// ```
public final class StatefulEndpoint<Value: Sendable>: Sendable {
    /// TinyHTTP's states; `loading` carries the value shown meanwhile, if any.
    public enum State: Sendable {
        /// Nothing loaded yet.
        case empty
        /// A load runs; the value shown meanwhile, if any.
        case loading(Value?)
        /// The last load's value.
        case success(Value)
        /// The last load's error.
        case failure(RequestError)
    }

    /// The resource underneath, for code that awaits (`try await all.resource.value()`).
    public let resource: Resource<Value>
    private let owned = OwnedObservations()

    /// Shares `resource`, e.g. `StatefulEndpoint(client.resource(Todos.all()))`.
    public init(_ resource: Resource<Value>) { self.resource = resource }

    /// The current state, read at once from any thread.
    public var state: State { Self.state(resource.state, shown: resource.latestValue) }

    /// Starts loading (or joins the load running) and returns it to await or cancel; the state
    /// is `.loading` when it returns.
    @discardableResult
    public func load() -> Task<Value, any Error> { resource.load() }

    /// Stops the running load.
    public func cancel() { resource.cancelLoading() }

    /// Calls `handler` on the main queue with the current state, then with each change, while `owner` lives.
    public func observe(owner: AnyObject & Sendable, _ handler: @escaping @MainActor @Sendable (State) -> Void) {
        let shown = Shown<Value>()
        let observation = resource.observe { [weak owner] state in
            guard owner != nil else { return }
            let state = Self.state(state, shown: shown.value)
            shown.value = if case .success(let value) = state { value } else if case .empty = state { nil } else { shown.value }
            DispatchQueue.main.async { handler(state) }
        }
        owned.keep(observation, while: owner)
    }

    private static func state(_ state: Resource<Value>.State, shown: Value?) -> State {
        switch state {
        case .idle: .empty
        case .loading: .loading(shown)
        case .loaded(let value): .success(value)
        case .failed(let error): .failure(error)
        }
    }
}

/// The value one observer was last shown (its handler is never called twice at once).
private final class Shown<Value>: @unchecked Sendable {
    var value: Value?
}

/// Observations kept while their owners live: one whose owner is gone is let go (which ends it)
/// the next time one is kept.
private final class OwnedObservations: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [(owner: () -> AnyObject?, observation: @Sendable () -> Void)] = []

    func keep(_ observation: @escaping @Sendable () -> Void, while owner: AnyObject) {
        lock.lock()
        defer { lock.unlock() }
        kept.removeAll { $0.owner() == nil }
        kept.append(({ [weak owner] in owner }, observation))
    }
}
