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
        var reader: CheckedContinuation<Data?, any Error>?
        var paused: EventLoopPromise<Void>?
        var end: Result<Void, any Error>?
    }

    private let state = NIOLockedValueBox(State())

    /// A chunk arrived; the future completes when AsyncHTTPClient may read the next one.
    func push(_ buffer: ByteBuffer, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let chunk = Data(buffer: buffer)
        let (reader, paused): (CheckedContinuation<Data?, any Error>?, EventLoopPromise<Void>?) = state.withLockedValue { state in
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
        try await withCheckedThrowingContinuation { continuation in
            let (result, resumed): (Result<Data?, any Error>?, EventLoopPromise<Void>?) = state.withLockedValue { state in
                if !state.buffer.isEmpty {
                    let chunk = state.buffer.removeFirst()
                    state.bufferedBytes -= chunk.count
                    guard state.bufferedBytes < Self.bufferLimit, let paused = state.paused else { return (.success(chunk), nil) }
                    state.paused = nil
                    return (.success(chunk), paused)
                }
                if let end = state.end { return (end.map { nil }, nil) }
                state.reader = continuation
                return (nil, nil)
            }
            resumed?.succeed()
            if let result { continuation.resume(with: result) }
        }
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
