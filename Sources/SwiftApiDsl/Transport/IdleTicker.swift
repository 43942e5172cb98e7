import Foundation

/// One ticker for the whole process that checks every exchange in flight for idleness.
///
/// A timer per exchange would cost a schedule and a cancel on every request; this one ticks
/// every ``interval`` while exchanges with a timeout run, which bounds how late a timeout
/// fires, and goes quiet when there is nothing to watch.
final class IdleTicker: Sendable {
    /// The ticker every exchange uses.
    static let shared = IdleTicker()

    /// How often exchanges are checked: a timeout fires at most this late.
    static let interval: TimeInterval = 0.02

    private struct State {
        var watched: [ObjectIdentifier: ExchangeControl] = [:]
        var isTicking = false
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "SwiftApiDsl.IdleTicker")

    /// Checks `control` at every tick until ``unwatch(_:)``; nothing for an exchange without a timeout.
    func watch(_ control: ExchangeControl) {
        guard control.idleTimeout > 0 else { return }
        let start: Bool = state.withLock { state in
            state.watched[ObjectIdentifier(control)] = control
            defer { state.isTicking = true }
            return !state.isTicking
        }
        if start { scheduleTick() }
    }

    /// Stops checking `control`.
    func unwatch(_ control: ExchangeControl) {
        guard control.idleTimeout > 0 else { return }
        state.withLock { _ = $0.watched.removeValue(forKey: ObjectIdentifier(control)) }
    }

    private func scheduleTick() {
        queue.asyncAfter(deadline: .now() + Self.interval) { [self] in tick() }
    }

    private func tick() {
        let watched: [ExchangeControl] = state.withLock { state in
            state.isTicking = !state.watched.isEmpty
            return Array(state.watched.values)
        }
        guard !watched.isEmpty else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        for control in watched { control.checkIdleness(at: now) }
        scheduleTick()
    }
}
