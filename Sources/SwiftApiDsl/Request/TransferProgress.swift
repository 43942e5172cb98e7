import Foundation

/// How far an upload or a download has got.
///
/// ```swift
/// try await client.post("videos").uploadFile(movie)
///     .uploadProgress { print("sent \($0.completedBytes) of \($0.totalBytes ?? -1)") }
///     .perform()
/// ```
public struct TransferProgress: Sendable, Equatable {
    /// The bytes sent or received so far.
    public let completedBytes: Int64
    /// The bytes expected in all, when known: the body's size for an upload, the
    /// `Content-Length` of an uncompressed download. The last update always has it.
    public let totalBytes: Int64?

    /// Progress of `completedBytes` out of `totalBytes`.
    public init(completedBytes: Int64, totalBytes: Int64?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// The share done, from 0 to 1, when the total is known.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(Double(completedBytes) / Double(totalBytes), 1)
    }
}

/// A function that receives progress updates; it is called from any thread and should return quickly.
public typealias ProgressHandler = @Sendable (TransferProgress) -> Void

/// Turns byte counts into progress updates: monotonic, at most one per ``interval`` (20 a
/// second), and a last one equal to the total, whatever the engine reports.
final class ProgressReporter: Sendable {
    /// The shortest time between two updates, in nanoseconds.
    static let interval: UInt64 = 50_000_000

    private struct State {
        var completed: Int64 = 0
        var total: Int64?
        var lastReport: UInt64 = 0
        var reported: Int64 = -1
        /// The total the last update gave.
        var reportedTotal: Int64?
        var isFinished = false
    }

    private let handler: ProgressHandler
    private let state: Locked<State>

    init(total: Int64?, handler: @escaping ProgressHandler) {
        self.handler = handler
        self.state = Locked(State(total: total))
    }

    /// Counts `count` more bytes; reports if the last update is old enough.
    func advance(by count: Int) {
        advance { $0 + Int64(count) }
    }

    /// Moves to `completed` bytes in all, never backwards.
    func advance(to completed: Int64) {
        advance { max($0, completed) }
    }

    // Updates are handed to the handler under the lock: an engine's thread (bytes sent) and
    // the pipeline's task (the last update) both report, and the handler must see them in order.

    private func advance(_ change: (Int64) -> Int64) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            guard !state.isFinished else { return }
            state.completed = change(state.completed)
            if let total = state.total { state.completed = min(state.completed, total) }
            guard state.completed > state.reported, now - state.lastReport >= Self.interval || state.lastReport == 0 else { return }
            state.lastReport = now
            state.reported = state.completed
            state.reportedTotal = state.total
            handler(TransferProgress(completedBytes: state.completed, totalBytes: state.total))
        }
    }

    /// Sends the last update: everything done, out of a total equal to it, unless the last
    /// update sent was exactly that. `completed` is the final count when the reporter knows
    /// better than the engine (the server has answered).
    /// `atTotal`: the total expected is the final count (an upload the server has answered).
    func finish(completed: Int64? = nil, atTotal: Bool = false) {
        state.withLock { state in
            guard !state.isFinished else { return }
            state.isFinished = true
            let done = max((atTotal ? state.total : nil) ?? completed ?? state.completed, max(state.reported, 0))
            guard done != state.reported || state.reportedTotal != done else { return }
            handler(TransferProgress(completedBytes: done, totalBytes: done))
        }
    }
}
