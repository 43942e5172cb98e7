import Foundation

/// A request body made of chunks as they come, sent without being gathered first: with a
/// `Content-Length` when its length is known, chunked otherwise (as each engine can; see
/// ``RequestBody/stream(_:)``).
///
/// ```swift
/// let body = StreamedBody(length: nil, repeatable: false) { ResponseBody(chunks) }
/// try await client.post("uploads").modifier(RequestModifier(editing: { $0.setBody(.stream(body)) })).perform()
/// ```
/// `makeChunks` is called each time the body is sent. A body that is not `repeatable` is sent
/// at most once: a retry, a redirect that keeps the body or the replay after a refresh fails as
/// ``RequestError/transport(_:_:)`` with an ``ApiClientError`` (`.streamedBodyUnreadable`)
/// rather than send a truncated body. Neither can it be read synchronously
/// (``TransportRequest/makeBodyReader(chunkSize:)``, ``TransportRequest/bodyData()``).
public struct StreamedBody: Sendable, Equatable {
    /// The number of bytes the chunks add up to, when known.
    public let length: Int64?
    /// Whether ``makeChunks()`` may be called more than once.
    public let repeatable: Bool
    private let source: Source

    /// A body whose chunks `makeChunks` produces, `length` bytes in all when known.
    public init(length: Int64?, repeatable: Bool, makeChunks: @escaping @Sendable () -> ResponseBody) {
        self.length = length
        self.repeatable = repeatable
        self.source = Source(makeChunks)
    }

    /// The chunks, for a transport that sends the body. Throws an ``ApiClientError``
    /// (`.streamedBodyUnreadable`) when a body that is not ``repeatable`` was already asked for.
    public func makeChunks() throws -> ResponseBody {
        guard source.startSending(repeatable: repeatable) else {
            throw Self.unreadable("a streamed body that can be sent once was needed again (a retry, a redirect or a replay after a refresh)")
        }
        return source.make()
    }

    /// The chunks, for a transport that sends the body under `control`: read ahead, a megabyte
    /// at most, by a task of their own that stops when the exchange ends (``ExchangeControl/onEnd(_:)``).
    /// Reading them then fails with the reason of the abort, or `CancellationError` once the
    /// exchange is over, even while the producer has stopped yielding: a stalled producer does
    /// not hold the call, and its reading task is cancelled (a sequence that honours cancellation,
    /// as `AsyncStream` does, ends there). Cancelling the task that reads them aborts the exchange.
    /// A sequence cut short by a cancellation fails too, rather than pass for the whole body.
    /// Throws as ``makeChunks()`` does.
    ///
    /// ```swift
    /// for try await chunk in try streamed.makeChunks(endingWith: control) { try await send(chunk) }
    /// ```
    public func makeChunks(endingWith control: ExchangeControl) throws -> ResponseBody {
        let chunks = try makeChunks()
        let queue = ResponseChunkQueue(bufferLimit: 1 << 20)
        let reading = Task {
            do {
                for try await chunk in chunks {
                    guard !queue.push(chunk) else { continue }
                    await withCheckedContinuation { drained in queue.whenDrained { drained.resume() } }
                }
                try Task.checkCancellation()
                queue.finish()
            } catch {
                queue.finish(throwing: error)
            }
        }
        // Weakly: the control keeps its endings until it ends, and a control that never ends
        // (one made to call a transport directly) must not be kept by them.
        control.onEnd { [weak control] in
            // The reason first: the reading task, once cancelled, would end the queue with its own.
            queue.finish(throwing: control?.abortReason ?? CancellationError())
            reading.cancel()
        }
        return ResponseBody(makeNext: {
            { try await withTaskCancellationHandler { try await queue.next() } onCancel: { control.abort(CancellationError()) } }
        })
    }

    /// Two bodies are equal when they are the same body.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.source === rhs.source }

    static func unreadable(_ reason: String) -> ApiClientError {
        ApiClientError(.streamedBodyUnreadable, message: reason)
    }

    /// The maker of the chunks, and whether it was used, shared by every copy of the body.
    private final class Source: Sendable {
        let make: @Sendable () -> ResponseBody
        private let used = Locked(false)

        init(_ make: @escaping @Sendable () -> ResponseBody) { self.make = make }

        /// Whether the body may be sent now; marks it used.
        func startSending(repeatable: Bool) -> Bool {
            used.withLock { used in
                defer { used = true }
                return repeatable || !used
            }
        }
    }
}
