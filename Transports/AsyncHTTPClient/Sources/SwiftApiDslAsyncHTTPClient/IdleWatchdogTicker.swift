import NIOConcurrencyHelpers
import NIOCore

/// One timer per transport that checks every exchange in flight for idleness.
///
/// A timer per request would cost two cross-thread wake-ups of an event loop (schedule and
/// cancel) on every exchange; this one ticks every ``interval`` while exchanges run, which
/// bounds how late a timeout fires, and stops after a second with nothing to watch.
final class IdleWatchdogTicker: Sendable {
    /// How often the exchanges are checked: a timeout fires at most this late.
    static let interval = TimeAmount.milliseconds(20)
    /// How many empty ticks in a row stop the timer.
    private static let idleTicksBeforeStopping = 50

    private struct State {
        var watched: [ObjectIdentifier: IdleWatchdog] = [:]
        var timer: RepeatedTask?
        var emptyTicks = 0
        var isStopped = false
    }

    private let eventLoop: any EventLoop
    private let state = NIOLockedValueBox(State())

    /// A ticker whose timer runs on `eventLoop`.
    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Checks `watchdog` at every tick until ``unwatch(_:)``.
    func watch(_ watchdog: IdleWatchdog) {
        state.withLockedValue { state in
            state.watched[ObjectIdentifier(watchdog)] = watchdog
            guard state.timer == nil, !state.isStopped else { return }
            state.emptyTicks = 0
            state.timer = eventLoop.scheduleRepeatedTask(initialDelay: Self.interval, delay: Self.interval) { [weak self] _ in
                self?.tick()
            }
        }
    }

    /// Stops checking `watchdog`.
    func unwatch(_ watchdog: IdleWatchdog) {
        state.withLockedValue { _ = $0.watched.removeValue(forKey: ObjectIdentifier(watchdog)) }
    }

    /// Stops the timer for good, when the transport shuts down.
    func stop() {
        let timer = state.withLockedValue { state in
            state.isStopped = true
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    private func tick() {
        let (watched, idleTimer) = state.withLockedValue { state -> ([IdleWatchdog], RepeatedTask?) in
            state.emptyTicks = state.watched.isEmpty ? state.emptyTicks + 1 : 0
            guard state.emptyTicks >= Self.idleTicksBeforeStopping else { return (Array(state.watched.values), nil) }
            defer { state.timer = nil }
            return ([], state.timer)
        }
        idleTimer?.cancel()
        let now = NIODeadline.now()
        for watchdog in watched { watchdog.check(at: now) }
    }
}
