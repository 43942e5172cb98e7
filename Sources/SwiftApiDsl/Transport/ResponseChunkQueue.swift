import Foundation

/// The chunks of a response body on their way from an engine's callbacks to the task that
/// reads them: the engine calls ``push(_:)`` and ``finish(throwing:)`` from any thread, the
/// pipeline reads ``body``.
///
/// A chunk already queued, or the end, is read without suspending the reader. A suspension,
/// even one resumed at once, sends the task back through the executor's queue and often wakes
/// another thread; an engine usually queues a small body before anyone reads it, so that most
/// bodies are read with no suspension at all (an `AsyncThrowingStream` suspends at every chunk).
///
/// With a `bufferLimit`, ``push(_:)`` says when the queue is full, so that an engine that can
/// pause stops reading its socket until ``whenDrained(_:)`` calls it back:
/// ```swift
/// func didReceive(_ chunk: Data) -> EventLoopFuture<Void> {
///     guard !queue.push(chunk) else { return eventLoop.makeSucceededVoidFuture() }
///     let resumed = eventLoop.makePromise(of: Void.self)
///     queue.whenDrained { resumed.succeed() }
///     return resumed.futureResult
/// }
/// ```
public final class ResponseChunkQueue: Sendable {
    struct State {
        /// Queued chunks; those before `start` were read already.
        var buffer: [Data] = []
        var start = 0
        var bufferedBytes = 0
        var reader: UnsafeContinuation<Data?, any Error>?
        var drained: (@Sendable () -> Void)?
        var end: Result<Void, any Error>?
    }

    private let bufferLimit: Int
    let state = Locked(State())

    /// A queue that holds up to `bufferLimit` bytes before ``push(_:)`` returns `false`;
    /// `nil` for no limit (an engine that cannot pause).
    public init(bufferLimit: Int? = nil) {
        self.bufferLimit = bufferLimit ?? .max
    }

    /// The body that reads this queue, once.
    public var body: ResponseBody {
        ResponseBody(makeNext: { { try await self.next() } })
    }

    /// Queues `chunk` (an empty one is dropped) or hands it to a waiting reader. Returns
    /// whether the engine may go on: `false` once `bufferLimit` bytes are queued.
    @discardableResult
    public func push(_ chunk: Data) -> Bool {
        guard !chunk.isEmpty else { return true }
        let (reader, mayGoOn): (UnsafeContinuation<Data?, any Error>?, Bool) = state.withLock { state in
            guard state.end == nil else { return (nil, true) }
            if let reader = state.reader.take() { return (reader, true) }
            state.buffer.append(chunk)
            state.bufferedBytes += chunk.count
            return (nil, state.bufferedBytes < bufferLimit)
        }
        reader?.resume(returning: chunk)
        return mayGoOn
    }

    /// Calls `resume` once the reader has taken enough for the queue to be below its limit
    /// again, or the body has ended; at once if it is already.
    public func whenDrained(_ resume: @escaping @Sendable () -> Void) {
        let now = state.withLock { state in
            guard state.bufferedBytes >= bufferLimit, state.end == nil else { return true }
            state.drained = resume
            return false
        }
        if now { resume() }
    }

    /// Ends the body: normally, or with `error`, which the reader gets after the chunks
    /// already queued. Only the first call counts.
    public func finish(throwing error: (any Error)? = nil) {
        let (reader, drained) = state.withLock { state in
            if state.end == nil { state.end = error.map { .failure($0) } ?? .success(()) }
            return (state.reader.take(), state.drained.take())
        }
        // A paused engine must be let go, even when nobody reads any more.
        drained?()
        reader?.resume(with: error.map { .failure($0) } ?? .success(nil))
    }

    /// The next chunk, waiting for it if none is queued; `nil` at the end of the body.
    func next() async throws -> Data? {
        if let ready = take(orWaitWith: nil) { return try ready.get() }
        let chunk = try await withUnsafeThrowingContinuation { continuation in
            if let ready = take(orWaitWith: continuation) { continuation.resume(with: ready) }
        }
        // The engine resumed the reader after letting the lock go; taking it orders the chunk
        // (and, for the first read, the queue itself) before what the reader does with it.
        state.synchronize()
        return chunk
    }

    /// The next chunk or the end when there is one; otherwise records `reader`, if given, as
    /// waiting for the next chunk, and returns `nil`.
    private func take(orWaitWith reader: UnsafeContinuation<Data?, any Error>?) -> Result<Data?, any Error>? {
        let (result, drained): (Result<Data?, any Error>?, (@Sendable () -> Void)?) = state.withLock { state in
            guard state.start < state.buffer.count else {
                if let end = state.end { return (end.map { nil }, nil) }
                if let reader { state.reader = reader }
                return (nil, nil)
            }
            let chunk = state.buffer[state.start]
            state.buffer[state.start] = Data()
            state.start += 1
            // The read part is dropped once it is half the buffer: amortised O(1) per chunk.
            if state.start * 2 >= state.buffer.count {
                state.buffer.removeFirst(state.start)
                state.start = 0
            }
            state.bufferedBytes -= chunk.count
            guard state.bufferedBytes < bufferLimit else { return (.success(chunk), nil) }
            return (.success(chunk), state.drained.take())
        }
        drained?()
        return result
    }
}
