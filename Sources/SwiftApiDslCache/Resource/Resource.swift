import Foundation
import SwiftApiDsl
#if canImport(Observation)
import Observation
#endif

extension RequestStarting {
    /// A shared, observable loader of `endpoint` on the client: one request however many
    /// callers ask at once. See ``Resource``.
    ///
    /// ```swift
    /// let todos = client.resource(Todos.all())
    /// ```
    public func resource<Value: Sendable>(_ endpoint: Endpoint<Value>) -> Resource<Value> {
        Resource(endpoint, client: client)
    }
}

/// One endpoint's value shared by many parts of an app, with its loading state: the first
/// caller starts a request, every caller meanwhile waits for that same request.
///
/// ```swift
/// let todos = client.resource(Todos.all())
/// let list = try await todos.value()          // loads once, then answers from memory
/// try await todos.reload()                    // asks again, keeping `latestValue` meanwhile
/// for await state in todos.states { render(state) }
///
/// // From code that does not wait (a view controller, a SwiftUI action):
/// // The handler runs off the main actor: hop to it for the screen.
/// let observation = todos.observe { state in DispatchQueue.main.async { render(state) } }
/// let load = todos.load()                     // `todos.state` is `.loading` when it returns
/// load.cancel()                               // or `todos.cancelLoading()`, whoever started it
/// ```
/// It is a class because its identity is the point: everyone holding it shares one state.
/// Every member may be called from any thread or actor (the main actor included); ``state`` and
/// ``latestValue`` are read at once, without `await`.
///
/// - **Single flight.** While a load runs, ``value()``, ``reload()`` and ``load()`` join it
///   instead of starting another. A caller whose task is cancelled stops waiting at once with
///   `CancellationError`; the load goes on for the others. ``cancelLoading()``, or cancelling the
///   task ``load()`` returns, stops the load itself.
/// - **Revalidation.** A resource loads through an ``HTTPCache``: its client's, or a private
///   one-entry cache when the client has none. Once a value is loaded, every later load of a GET
///   endpoint (``reload()``, ``load()``, a ``value()`` after ``invalidate()`` or a failure) asks
///   the cache to revalidate (`Cache-Control: no-cache`): the cache sends the validators of the
///   answer it stored (`If-None-Match`, `If-Modified-Since`). A `304 Not Modified` returns the
///   stored answer, body included; when its bytes are those the value was decoded from, the value
///   is kept (or brought back after ``invalidate()``) without decoding. Any other answer is
///   decoded as usual. When the cache holds nothing (emptied, evicted, or the answer could not be
///   stored: `no-store`, a `HEAD`, `Authorization` without `private`…) the request is sent whole.
/// - **State.** ``state`` moves `idle → loading → loaded` or `failed`. ``latestValue`` keeps
///   the last value loaded during a reload and after a failure.
/// - **Observation.** ``states`` (an `AsyncSequence`) and ``observe(_:)`` (a closure, without a
///   task) see every state in order; the handlers of ``observe(_:)`` are told of each state in
///   turn, in the order they were registered, before any is told of the next one. A load emits `.loading` when it starts, then `.loaded(value)`
///   or `.failed(error)`; after a 304, `.loaded` carries the very value held before (nothing new
///   was decoded), so an observer that compares values sees none change. On macOS 14, iOS 17 and
///   later (and on Linux) the resource is also `Observable`: a view reading ``state`` updates on
///   each state, one reading only ``latestValue`` only when the value really changes (a 304 or a
///   `.loading` leaves it alone).
public final class Resource<Value: Sendable>: Sendable {
    /// Where a resource is in its life.
    public enum State: Sendable {
        /// Nothing loaded yet, or invalidated.
        case idle
        /// A request is running; ``Resource/latestValue`` still holds the previous value, if any.
        case loading
        /// The last load succeeded with this value (for a 304, the value already held).
        case loaded(Value)
        /// The last load failed; ``Resource/latestValue`` still holds the previous value, if any.
        case failed(RequestError)
    }

    /// The endpoint loaded.
    let endpoint: Endpoint<Value>
    /// The client that loads it.
    let client: ApiClient
    /// ``client`` with an ``HTTPCache`` to make every conditional request: the client's own
    /// when it has one, else a private one-entry cache, before the client's middlewares.
    let loader: ApiClient

    struct Storage {
        var state: State = .idle
        var latestValue: Value?
        /// The last value loaded with the head it came in, kept by ``invalidate()`` too: the
        /// next load asks the server whether it is still current.
        var validated: ValidatedValue<Value>?
        /// Whether the change under way moved ``state`` or gave ``latestValue`` another value:
        /// Observation is told of those only.
        var changed: (state: Bool, latestValue: Bool) = (false, false)
        /// Increased by each load, by ``invalidate()`` and by ``cancelLoading()``: a load stores
        /// its result only if it is still current.
        var generation = 0
        /// The current load's task, while it runs.
        var loading: Task<Value, any Error>?
        var waiters: [UUID: (generation: Int, continuation: CheckedContinuation<Value, any Error>)] = [:]
        var streams: [UUID: AsyncStream<State>.Continuation] = [:]
        /// The handlers of ``Resource/observe(_:)``, in the order they were registered.
        var observers: [(id: UUID, handler: @Sendable (State) -> Void)] = []
        /// The calls still to make, in order: each state to every handler in turn (see ``Resource/deliver()``).
        var undelivered: [(id: UUID, handler: @Sendable (State) -> Void, state: State)] = []
        /// Whether a thread is making those calls now.
        var isDelivering = false

        /// Sets the state and tells every observer, in order (this runs under the lock; the
        /// handlers of ``Resource/observe(_:)`` are called once it is let go). An idle resource
        /// invalidated again does not change.
        mutating func set(_ newState: State) {
            if case .idle = state, case .idle = newState { return }
            state = newState
            changed.state = true
            for stream in streams.values { stream.yield(newState) }
            undelivered += observers.map { ($0.id, $0.handler, newState) }
        }

        /// Sets ``latestValue``, noting whether it changed.
        mutating func setLatestValue(_ value: Value?, changed: Bool) {
            latestValue = value
            self.changed.latestValue = self.changed.latestValue || changed
        }
    }

    let storage = Locked(Storage())
    /// An `ObservationRegistrar` where Observation is available; stored untyped because the
    /// type does not exist before macOS 14 / iOS 17, which this package still supports.
    let registrar: any Sendable

    /// Creates a resource for `endpoint` on `client`; nothing is loaded until asked.
    init(_ endpoint: Endpoint<Value>, client: ApiClient) {
        self.endpoint = endpoint
        self.client = client
        // A private cache goes first, so that what later middlewares add (a signature) stays out of its key.
        loader = client.middlewares.contains { $0.name == HTTPCache.middlewareName } ? client
            : client.middlewares([HTTPCache(store: SingleEntryStore()).middleware] + client.middlewares)
        #if canImport(Observation)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
            registrar = ObservationRegistrar()
            return
        }
        #endif
        registrar = ()
    }

    deinit {
        storage.withLock { storage in storage.streams.values.forEach { $0.finish() } }
    }

    /// The current state, read at once from any thread or actor.
    public var state: State {
        observeAccess(\.state)
        return storage.withLock { $0.state }
    }

    /// The last value loaded, kept while reloading and after a failed load; `nil` before the
    /// first success and after ``invalidate()``.
    public var latestValue: Value? {
        observeAccess(\.latestValue)
        return storage.withLock { $0.latestValue }
    }

    /// The value: the one loaded if the state is ``State/loaded(_:)``, else the result of the
    /// running load, or of a new one. Throws the load's `RequestError`.
    public func value() async throws -> Value {
        try await join(restart: false)
    }

    /// Loads the value again (asking the server whether the current one changed, see
    /// ``Resource``), or waits for the load already running; ``latestValue`` stays meanwhile.
    /// Returns the new value, or after a 304 the one held; throws the load's `RequestError`.
    @discardableResult
    public func reload() async throws -> Value {
        try await join(restart: true)
    }

    /// Starts a load, as ``reload()`` does, without waiting for it, and returns it: when it
    /// returns, ``state`` is ``State/loading``. Joins the load already running, if any (the same
    /// task is returned). Await the task's `value` for the load's value (what its waiters get, a
    /// `CancellationError` once it is cancelled); `cancel()` it to stop the load, as
    /// ``cancelLoading()`` does. Or follow it with ``observe(_:)`` or ``states``.
    ///
    /// ```swift
    /// func viewDidLoad() { todos.load() }   // a spinner shows at once
    /// let load = todos.load()
    /// load.cancel()                         // the request stops; the state goes back
    /// ```
    @discardableResult
    public func load() -> Task<Value, any Error> {
        mutate { storage in storage.loading ?? start(&storage) }
    }

    /// Cancels the running load, whoever started it: its request stops, the callers waiting for
    /// it throw `CancellationError`, and ``state`` goes back to ``State/loaded(_:)`` with
    /// ``latestValue`` when there is one, else to ``State/idle``. Does nothing when no load runs.
    public func cancelLoading() {
        stop()
    }

    /// Forgets the value and returns to ``State/idle``: the next ``value()`` loads again. A load
    /// running now still answers its waiters, but its result is not kept. The validators of the
    /// forgotten value are kept: the next load asks the server whether it is still current, and a
    /// 304 brings it back without decoding.
    public func invalidate() {
        mutate { storage in
            storage.generation += 1
            storage.loading = nil
            storage.setLatestValue(nil, changed: storage.latestValue != nil)
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
                    if storage.loading == nil { start(&storage) }
                    storage.waiters[id] = (storage.generation, continuation)
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            storage.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: client.mapped(CancellationError()))
        }
    }

    /// Starts the one load, in a task of its own so that no waiter's cancellation stops it;
    /// cancelling the task itself stops the load as ``cancelLoading()`` does.
    @discardableResult
    private func start(_ storage: inout Storage) -> Task<Value, any Error> {
        storage.generation += 1
        storage.set(.loading)
        let generation = storage.generation
        let current = storage.validated
        let load = Task { [loader, endpoint, client] in
            let result: Result<(loaded: ValidatedValue<Value>, notModified: Bool), any Error>
            do {
                result = .success(try await withTaskCancellationHandler {
                    try await endpoint.load(on: loader, revalidating: current)
                } onCancel: {
                    self.stop(generation)
                })
            } catch {
                result = .failure(error.asRequestError)
            }
            let answer = self.finish(generation, with: result)
            if Task.isCancelled { throw client.mapped(CancellationError()) }
            return try answer.get()
        }
        storage.loading = load
        return load
    }

    /// Stops the load numbered `generation` if it still runs, or without a number the running
    /// one, whose task it then cancels: its waiters throw `CancellationError` and ``state`` goes
    /// back to the value held, or to ``State/idle``.
    private func stop(_ generation: Int? = nil) {
        let (load, waiters) = mutate { storage -> (Task<Value, any Error>?, [CheckedContinuation<Value, any Error>]) in
            guard let load = storage.loading, (generation ?? storage.generation) == storage.generation else { return (nil, []) }
            let stopped = storage.generation
            storage.generation += 1
            storage.loading = nil
            storage.set(storage.latestValue.map(State.loaded) ?? .idle)
            return (load, storage.takeWaiters(of: stopped))
        }
        // A numbered load is stopped by its own task's cancellation: that task is cancelled already.
        if generation == nil { load?.cancel() }
        for waiter in waiters { waiter.resume(throwing: client.mapped(CancellationError())) }
    }

    /// Stores a current load's result, answers the waiters of that load, and returns their answer.
    private func finish(_ generation: Int, with result: Result<(loaded: ValidatedValue<Value>, notModified: Bool), any Error>) -> Result<Value, any Error> {
        let waiters = mutate { storage in
            if generation == storage.generation {
                storage.loading = nil
                switch result {
                case .success(let (loaded, notModified)):
                    storage.validated = loaded
                    // After a 304 the value is the one held (or forgotten by `invalidate()`).
                    storage.setLatestValue(loaded.value, changed: !notModified || storage.latestValue == nil)
                    storage.set(.loaded(loaded.value))
                case .failure(let error):
                    storage.set(.failed(error.asRequestError))
                }
            }
            return storage.takeWaiters(of: generation)
        }
        // `state` keeps the RequestError; the waiters get the app's error (`mapError`).
        let answer = result.map(\.loaded.value).mapError { client.mapped($0) }
        for waiter in waiters { waiter.resume(with: answer) }
        return answer
    }
}

extension Resource.Storage {
    /// Removes and returns the waiters of the load numbered `generation`.
    mutating func takeWaiters(of generation: Int) -> [CheckedContinuation<Value, any Error>] {
        let answered = waiters.filter { $0.value.generation == generation }
        for id in answered.keys { waiters[id] = nil }
        return answered.values.map(\.continuation)
    }
}
