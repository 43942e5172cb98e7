import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Ends an exchange that has gone `timeout` without sending or receiving a byte.
///
/// AsyncHTTPClient has no per-request idle timeout (its `deadline` bounds the time until the
/// response head, upload included, and its read timeout is set once per client), so the
/// transport keeps its own: the exchange runs in a child task, the body streams call
/// ``noteActivity()`` as bytes move, and the transport's ``IdleWatchdogTicker`` cancels the
/// child task once the last activity is `timeout` old.
final class IdleWatchdog: Sendable {
    private struct State {
        var lastActivity = NIODeadline.now()
        var onIdle: (@Sendable () -> Void)?
        var hasFired = false
    }

    private let timeout: TimeAmount
    private let ticker: IdleWatchdogTicker
    private let state = NIOLockedValueBox(State())

    /// A watchdog for `timeout` seconds (sub-second values included), checked by `ticker`.
    init(timeout: TimeInterval, ticker: IdleWatchdogTicker) {
        // Clamped so that a huge interval (or infinity) cannot overflow the nanosecond count.
        self.timeout = .nanoseconds(Int64(min(timeout, 9e9) * 1e9))
        self.ticker = ticker
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
        let work: Task<Result, any Error>
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) {
            // Starts on this thread, so that the exchange costs no hop to another one.
            work = Task.immediate(operation: operation)
        } else {
            work = Task(operation: operation)
        }
        state.withLockedValue { $0.onIdle = { work.cancel() } }
        ticker.watch(self)
        defer { ticker.unwatch(self) }
        return try await withTaskCancellationHandler {
            try await work.value
        } onCancel: {
            work.cancel()
        }
    }

    /// Ends the exchange if it has been idle for `timeout` at `now`.
    func check(at now: NIODeadline) {
        let onIdle: (@Sendable () -> Void)? = state.withLockedValue { state in
            guard let onIdle = state.onIdle, state.lastActivity + timeout <= now else { return nil }
            state.hasFired = true
            state.onIdle = nil
            return onIdle
        }
        onIdle?()
    }
}
