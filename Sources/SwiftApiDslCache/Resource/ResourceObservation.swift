/// What keeps a handler of ``Resource/observe(_:)`` registered: the cancel function that call
/// returns holds it, so that letting the function go, like calling it, ends the observation.
final class ResourceObservation: Sendable {
    private let remove: @Sendable () -> Void

    init(remove: @escaping @Sendable () -> Void) {
        self.remove = remove
    }

    deinit { remove() }

    /// Stops the observation; a second time does nothing more.
    func cancel() { remove() }
}
