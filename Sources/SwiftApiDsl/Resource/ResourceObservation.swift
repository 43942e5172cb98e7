import Foundation

/// A registered observer of a ``Resource``: ``cancel()`` it, or let it go, to stop observing.
///
/// ```swift
/// final class TodosScreen {
///     var observation: ResourceObservation?
///     func start() {
///         observation = todos.observe { [weak self] state in … }   // ends with the screen
///     }
/// }
/// ```
public final class ResourceObservation: Sendable {
    private let remove: @Sendable () -> Void

    init(remove: @escaping @Sendable () -> Void) {
        self.remove = remove
    }

    deinit { remove() }

    /// Stops the observation: the handler is not called again, except for a call already
    /// running on another thread, which finishes. Cancelling twice does nothing more.
    public func cancel() { remove() }
}

/// The states waiting for one observer's handler, delivered one at a time and in order by
/// whichever thread finds the handler free, never under the resource's lock (a handler may read
/// the resource, start a load or cancel its own observation).
final class StateMailbox<State: Sendable>: Sendable {
    private struct Box {
        var pending: [State] = []
        var isDelivering = false
        var isClosed = false
    }

    private let box = Locked(Box())
    private let handler: @Sendable (State) -> Void

    init(_ handler: @escaping @Sendable (State) -> Void) {
        self.handler = handler
    }

    /// Queues `state`; the resource posts under its lock, so the queue keeps the order of changes.
    func post(_ state: State) {
        box.withLock { box in if !box.isClosed { box.pending.append(state) } }
    }

    /// Hands the queued states to the handler, unless another call is doing it already (that
    /// call delivers what was queued meanwhile before it returns).
    func deliver() {
        while let next = box.withLock({ box -> State? in
            guard !box.isDelivering, !box.isClosed, !box.pending.isEmpty else { return nil }
            box.isDelivering = true
            return box.pending.removeFirst()
        }) {
            handler(next)
            box.withLock { $0.isDelivering = false }
        }
    }

    /// Drops what is queued; nothing is delivered from now on.
    func close() {
        box.withLock { box in
            box.isClosed = true
            box.pending = []
        }
    }
}
