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
