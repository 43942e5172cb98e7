import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Ends an exchange that has gone `timeout` without sending or receiving a byte.
///
/// AsyncHTTPClient has no per-request idle timeout (its `deadline` bounds the time until the
/// response head, upload included, and its read timeout is set once per client), so the
/// transport keeps its own: the exchange runs in a child task, the body streams call
/// ``noteActivity()`` as bytes move, and a timer on an event loop cancels the child task once
/// the last activity is `timeout` old. It re-arms itself for the remaining time otherwise, so
/// a busy transfer costs one timer per `timeout`, not one per chunk.
final class IdleWatchdog: Sendable {
    private struct State {
        var lastActivity = NIODeadline.now()
        var timer: Scheduled<Void>?
        var onIdle: (@Sendable () -> Void)?
        var hasFired = false
        var isStopped = false
    }

    private let timeout: TimeAmount
    private let eventLoop: any EventLoop
    private let state = NIOLockedValueBox(State())

    /// A watchdog for `timeout` seconds (sub-second values included) whose timer runs on `eventLoop`.
    init(timeout: TimeInterval, eventLoop: any EventLoop) {
        // Clamped so that a huge interval (or infinity) cannot overflow the nanosecond count.
        self.timeout = .nanoseconds(Int64(min(timeout, 9e9) * 1e9))
        self.eventLoop = eventLoop
    }

    /// Whether the timeout ended the exchange.
    var hasFired: Bool { state.withLockedValue { $0.hasFired } }

    /// Records that bytes moved just now.
    func noteActivity() {
        state.withLockedValue { $0.lastActivity = .now() }
    }

    /// Runs `operation` in a child task that is cancelled when it goes idle for too long or
    /// when the calling task is cancelled, and returns its result.
    func guarding<Result: Sendable>(_ operation: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let work = Task(operation: operation)
        state.withLockedValue { $0.onIdle = { work.cancel() } }
        arm(at: .now() + timeout)
        defer { stop() }
        return try await withTaskCancellationHandler {
            try await work.value
        } onCancel: {
            work.cancel()
        }
    }

    /// Cancels the timer; the watchdog does nothing after this.
    private func stop() {
        let timer = state.withLockedValue { state in
            state.isStopped = true
            state.onIdle = nil
            return state.timer
        }
        timer?.cancel()
    }

    private func arm(at deadline: NIODeadline) {
        let timer = eventLoop.scheduleTask(deadline: deadline) { self.check() }
        let isStopped = state.withLockedValue { state in
            if !state.isStopped { state.timer = timer }
            return state.isStopped
        }
        if isStopped { timer.cancel() }
    }

    /// Fires if the exchange has been idle for `timeout`, or re-arms for the time left.
    private func check() {
        enum Outcome { case fire(@Sendable () -> Void), rearm(NIODeadline), none }
        let outcome: Outcome = state.withLockedValue { state in
            guard !state.isStopped, let onIdle = state.onIdle else { return .none }
            let expiry = state.lastActivity + timeout
            guard expiry <= .now() else { return .rearm(expiry) }
            state.hasFired = true
            state.isStopped = true
            state.onIdle = nil
            return .fire(onIdle)
        }
        switch outcome {
        case .fire(let onIdle): onIdle()
        case .rearm(let deadline): arm(at: deadline)
        case .none: break
        }
    }
}
