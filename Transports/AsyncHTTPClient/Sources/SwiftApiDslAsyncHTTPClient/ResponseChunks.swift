import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat

/// The body of one response, handed from AsyncHTTPClient's event loop to the task that reads it,
/// with back-pressure.
///
/// Chunks queue up to ``bufferLimit`` bytes; beyond that the future given back to
/// AsyncHTTPClient stays pending, so it stops reading the socket until the reader catches up.
/// Memory stays at about a megabyte whatever the size of the body.
final class ResponseChunks: Sendable {
    /// The most bytes held before AsyncHTTPClient is asked to pause.
    static let bufferLimit = 1 << 20

    private struct State {
        var buffer: [Data] = []
        var bufferedBytes = 0
        var reader: UnsafeContinuation<Data?, any Error>?
        var paused: EventLoopPromise<Void>?
        var end: Result<Void, any Error>?
    }

    private let state = NIOLockedValueBox(State())

    /// A chunk arrived; the future completes when AsyncHTTPClient may read the next one.
    func push(_ buffer: ByteBuffer, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let chunk = Data(buffer: buffer)
        let (reader, paused): (UnsafeContinuation<Data?, any Error>?, EventLoopPromise<Void>?) = state.withLockedValue { state in
            if let reader = state.reader {
                state.reader = nil
                return (reader, nil)
            }
            state.buffer.append(chunk)
            state.bufferedBytes += chunk.count
            guard state.bufferedBytes >= Self.bufferLimit else { return (nil, nil) }
            let promise = eventLoop.makePromise(of: Void.self)
            state.paused = promise
            return (nil, promise)
        }
        reader?.resume(returning: chunk)
        return paused?.futureResult ?? eventLoop.makeSucceededVoidFuture()
    }

    /// The body ended, or failed with `error`.
    func finish(_ result: Result<Void, any Error>) {
        let (reader, paused) = state.withLockedValue { state in
            if state.end == nil { state.end = result }
            defer {
                state.reader = nil
                state.paused = nil
            }
            return (state.reader, state.paused)
        }
        // A pending promise must be completed, even when nobody waits for it any more.
        paused?.succeed()
        reader?.resume(with: result.map { nil })
    }

    /// The next chunk, waiting for it if none is queued; `nil` at the end of the body.
    func next() async throws -> Data? {
        // A chunk already queued, or the end, is returned without suspending: a suspension,
        // even one resumed at once, sends the task back through the executor's queue (often
        // a wake-up of another thread), and a small body is usually queued before it is read.
        if let ready = take(orWaitWith: nil) { return try ready.get() }
        return try await withUnsafeThrowingContinuation { continuation in
            if let ready = take(orWaitWith: continuation) { continuation.resume(with: ready) }
        }
    }

    /// The next chunk or the end when there is one; otherwise records `reader`, if given, as
    /// waiting for the next chunk, and returns `nil`.
    private func take(orWaitWith reader: UnsafeContinuation<Data?, any Error>?) -> Result<Data?, any Error>? {
        let (result, resumed): (Result<Data?, any Error>?, EventLoopPromise<Void>?) = state.withLockedValue { state in
            if !state.buffer.isEmpty {
                let chunk = state.buffer.removeFirst()
                state.bufferedBytes -= chunk.count
                guard state.bufferedBytes < Self.bufferLimit, let paused = state.paused else { return (.success(chunk), nil) }
                state.paused = nil
                return (.success(chunk), paused)
            }
            if let end = state.end { return (end.map { nil }, nil) }
            if let reader { state.reader = reader }
            return (nil, nil)
        }
        resumed?.succeed()
        return result
    }
}

extension ResponseChunks {
    /// The chunks as an `AsyncSequence`, for ``SwiftApiDsl/ResponseBody``.
    struct Sequence: AsyncSequence, Sendable {
        typealias Element = Data
        let chunks: ResponseChunks

        func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks) }

        struct Iterator: AsyncIteratorProtocol {
            let chunks: ResponseChunks
            mutating func next() async throws -> Data? { try await chunks.next() }
        }
    }
}
