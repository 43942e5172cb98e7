import Foundation
#if canImport(Observation)
import Observation
#endif

extension ApiClient {
    /// A shared, observable loader of `endpoint` on this client: one request however many
    /// callers ask at once. See ``Resource``.
    ///
    /// ```swift
    /// let todos = client.resource(Todos.all())
    /// ```
    public func resource<Value: Sendable>(_ endpoint: Endpoint<Value>) -> Resource<Value> {
        Resource(endpoint, client: self)
    }
}

/// One endpoint's value shared by many parts of an app, with its loading state: the first
/// caller starts a request, every caller meanwhile waits for that same request.
///
/// ```swift
/// let todos = client.resource(Todos.all())
/// let list = try await todos.value()          // loads once, then answers from memory
/// try await todos.reload()                    // loads again, keeping `latestValue` meanwhile
/// for await state in todos.states { render(state) }
/// ```
/// It is a class because its identity is the point: everyone holding it shares one state.
///
/// - **Single flight.** While a load runs, ``value()`` and ``reload()`` wait for it instead of
///   starting another. A caller whose task is cancelled stops waiting at once with
///   `CancellationError`; the load goes on for the others.
/// - **State.** ``state`` moves `idle → loading → loaded` or `failed`. ``latestValue`` keeps
///   the last value loaded during a reload and after a failure.
/// - **Observation.** ``states`` is an `AsyncSequence` of every change, for any number of
///   observers; on macOS 14, iOS 17 and later (and on Linux) the resource is also
///   `Observable`, so a SwiftUI view that reads ``state`` or ``latestValue`` updates by itself.
public final class Resource<Value: Sendable>: Sendable {
    /// Where a resource is in its life.
    public enum State: Sendable {
        /// Nothing loaded yet, or invalidated.
        case idle
        /// A request is running; ``Resource/latestValue`` still holds the previous value, if any.
        case loading
        /// The last load succeeded with this value.
        case loaded(Value)
        /// The last load failed; ``Resource/latestValue`` still holds the previous value, if any.
        case failed(RequestError)
    }

    /// The endpoint loaded.
    public let endpoint: Endpoint<Value>
    /// The client that loads it.
    public let client: ApiClient

    private struct Storage {
        var state: State = .idle
        var latestValue: Value?
        /// Increased by each load and by ``invalidate()``: a load stores its result only if it is still current.
        var generation = 0
        var isLoading = false
        var waiters: [UUID: (generation: Int, continuation: CheckedContinuation<Value, any Error>)] = [:]
        var observers: [UUID: AsyncStream<State>.Continuation] = [:]

        /// Sets the state and tells every observer, in order (this runs under the lock).
        mutating func set(_ newState: State) {
            state = newState
            for observer in observers.values { observer.yield(newState) }
        }
    }

    private let storage = Locked(Storage())
    /// An `ObservationRegistrar` where Observation is available; stored untyped because the
    /// type does not exist before macOS 14 / iOS 17, which this package still supports.
    private let registrar: any Sendable

    /// Creates a resource for `endpoint` on `client`; nothing is loaded until asked.
    public init(_ endpoint: Endpoint<Value>, client: ApiClient) {
        self.endpoint = endpoint
        self.client = client
        #if canImport(Observation)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
            registrar = ObservationRegistrar()
            return
        }
        #endif
        registrar = ()
    }

    deinit {
        storage.withLock { storage in storage.observers.values.forEach { $0.finish() } }
    }

    /// The current state.
    public var state: State {
        observeAccess()
        return storage.withLock { $0.state }
    }

    /// The last value loaded, kept while reloading and after a failed load; `nil` before the
    /// first success and after ``invalidate()``.
    public var latestValue: Value? {
        observeAccess()
        return storage.withLock { $0.latestValue }
    }

    /// How many callers wait for a load in flight (tests wait for them to gather).
    var waiting: Int { storage.withLock { $0.waiters.count } }

    /// Every state from now on, starting with the current one, in order. Each access makes a
    /// new sequence for one observer; any number may observe, and leave by ending their loop.
    public var states: AsyncStream<State> {
        AsyncStream { continuation in
            let id = UUID()
            continuation.onTermination = { [weak self] _ in
                self?.storage.withLock { _ = $0.observers.removeValue(forKey: id) }
            }
            storage.withLock { storage in
                storage.observers[id] = continuation
                continuation.yield(storage.state)
            }
        }
    }

    /// The value: the one loaded if the state is ``State/loaded(_:)``, else the result of the
    /// running load, or of a new one. Throws the load's ``RequestError``.
    public func value() async throws -> Value {
        try await join(restart: false)
    }

    /// Loads the value again, or waits for the load already running; ``latestValue`` stays
    /// meanwhile. Returns the new value; throws the load's ``RequestError``.
    @discardableResult
    public func reload() async throws -> Value {
        try await join(restart: true)
    }

    /// Forgets the value and returns to ``State/idle``: the next ``value()`` loads again. A load
    /// running now still answers its waiters, but its result is not kept.
    public func invalidate() {
        mutate { storage in
            storage.generation += 1
            storage.isLoading = false
            storage.latestValue = nil
            storage.set(.idle)
        }
    }

    // MARK: Loading

    /// Waits for the value, starting a load when none is running (and, unless `restart`, none is loaded).
    private func join(restart: Bool) async throws -> Value {
        if !restart, case .loaded(let value) = storage.withLock({ $0.state }) { return value }
        let id = UUID()
        // The load's task resumes waiters after letting the lock go; see `Locked.synchronize()`.
        defer { storage.synchronize() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let immediate: Result<Value, any Error>? = mutate { storage in
                    if Task.isCancelled { return .failure(client.mapped(CancellationError())) }
                    if !restart, case .loaded(let value) = storage.state { return .success(value) }
                    if !storage.isLoading { start(&storage) }
                    storage.waiters[id] = (storage.generation, continuation)
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            storage.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: client.mapped(CancellationError()))
        }
    }

    /// Starts the one load, in a task of its own so that no waiter's cancellation stops it.
    private func start(_ storage: inout Storage) {
        storage.generation += 1
        storage.isLoading = true
        storage.set(.loading)
        let generation = storage.generation
        Task { [client, endpoint] in
            let result: Result<Value, any Error>
            do {
                result = .success(try await endpoint.performed(on: client, mapsErrors: false).response.body)
            } catch {
                result = .failure(error.asRequestError)
            }
            self.finish(generation, with: result)
        }
    }

    /// Stores a current load's result and answers the waiters of that load.
    private func finish(_ generation: Int, with result: Result<Value, any Error>) {
        let waiters = mutate { storage in
            if generation == storage.generation {
                storage.isLoading = false
                switch result {
                case .success(let value):
                    storage.latestValue = value
                    storage.set(.loaded(value))
                case .failure(let error):
                    storage.set(.failed(error.asRequestError))
                }
            }
            let answered = storage.waiters.filter { $0.value.generation == generation }
            for id in answered.keys { storage.waiters[id] = nil }
            return answered.values.map(\.continuation)
        }
        // `state` keeps the RequestError; the waiters get the app's error (`mapError`).
        let answer = result.mapError { client.mapped($0) }
        for waiter in waiters { waiter.resume(with: answer) }
    }

    // MARK: Observation

    /// Changes the storage under the lock, telling Observation (outside the lock, since its
    /// observers may read the state back).
    private func mutate<Result>(_ change: (inout Storage) -> Result) -> Result {
        #if canImport(Observation)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let registrar = registrar as? ObservationRegistrar {
            return registrar.withMutation(of: self, keyPath: \.state) { storage.withLock(change) }
        }
        #endif
        return storage.withLock(change)
    }

    private func observeAccess() {
        #if canImport(Observation)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let registrar = registrar as? ObservationRegistrar {
            registrar.access(self, keyPath: \.state)
        }
        #endif
    }
}

#if canImport(Observation)
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Resource: Observable {}
#endif
