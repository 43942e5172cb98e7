import Foundation

/// The body of a response as it arrives: an `AsyncSequence` of `Data` chunks, read once.
///
/// Transports make one from any sequence of chunks, or from bytes already in memory:
/// ```swift
/// ResponseBody(data)                          // one chunk
/// ResponseBody(stream)                        // an AsyncThrowingStream<Data, Error>, for example
/// ```
/// A chunk is never empty. Reading a body a second time is not supported: a sequence from an
/// engine delivers each chunk once.
public struct ResponseBody: AsyncSequence, Sendable {
    /// A chunk of the body, never empty.
    public typealias Element = Data

    private let makeNext: @Sendable () -> () async throws -> Data?
    /// The exchange this body reads from as it is, for the pipeline's one-loop read
    /// (``ExchangeBody/read(_:)``); `nil` for any other body, a middleware's included.
    let exchange: ExchangeBody?
    /// The whole body, when it was given whole (``init(_:)-(Data)``): nothing is left to wait for.
    let data: Data?

    /// A body read from `chunks`; empty chunks are skipped.
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element == Data {
        makeNext = {
            let iterator = IteratorBox(chunks.makeAsyncIterator())
            return { try await iterator.next() }
        }
        exchange = nil
        data = nil
    }

    /// A body of bytes already in memory.
    public init(_ data: Data) {
        makeNext = {
            var remaining: Data? = data.isEmpty ? nil : data
            return {
                defer { remaining = nil }
                return remaining
            }
        }
        exchange = nil
        self.data = data
    }

    /// A body whose chunks come from `next`, called until it returns `nil`.
    init(makeNext: @escaping @Sendable () -> () async throws -> Data?, exchange: ExchangeBody? = nil) {
        self.makeNext = makeNext
        self.exchange = exchange
        data = nil
    }

    /// No bytes at all.
    public static let empty = ResponseBody(Data())

    /// An iterator over the chunks as the engine delivers them.
    public func makeAsyncIterator() -> Iterator {
        Iterator(next: makeNext())
    }

    /// Hands out the chunks of a ``ResponseBody``.
    public struct Iterator: AsyncIteratorProtocol {
        let nextChunk: () async throws -> Data?

        init(next: @escaping () async throws -> Data?) {
            nextChunk = next
        }

        /// The next chunk, or `nil` at the end of the body.
        public mutating func next() async throws -> Data? {
            try await nextChunk()
        }
    }
}

/// Holds the iterator of another sequence, so that a closure can advance it.
private final class IteratorBox<Base: AsyncIteratorProtocol> where Base.Element == Data {
    private var base: Base

    init(_ base: Base) { self.base = base }

    func next() async throws -> Data? {
        while let chunk = try await base.next() {
            if !chunk.isEmpty { return chunk }
        }
        return nil
    }
}
