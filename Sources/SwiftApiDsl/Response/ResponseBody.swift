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
    /// The exchange this body reads from, through any wrapper of the library's, or that gave it
    /// whole; `nil` for a body a transport or middleware made.
    var control: ExchangeControl?
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

    /// A body whose chunks come from `next`, called until it returns `nil`, reading from
    /// `exchange` or, through a wrapper, from the exchange under `control`, if any.
    init(makeNext: @escaping @Sendable () -> () async throws -> Data?, exchange: ExchangeBody? = nil, control: ExchangeControl? = nil) {
        self.makeNext = makeNext
        self.exchange = exchange
        self.control = control ?? exchange?.control
        data = nil
    }

    /// Asks for the body to end, rather than be queued without bound, when it arrives faster than
    /// it is read and its engine cannot slow down (URLSession on Linux, 16 MiB unread); at once if
    /// it is that far behind already. The reader gets every byte received before that, then a
    /// ``RequestError/transport(_:_:)`` whose ``ApiClientError`` has the code
    /// ``ApiClientError/Code/readerFellBehind``: go on from there with a `Range` request, as
    /// `download(destination:)` does. A body whose engine pauses (AsyncHTTPClient),
    /// a body given whole, and a body a middleware made never end this way.
    ///
    /// ```swift
    /// let response = try await client.get("backup.tar").stream()
    /// // Only a server that can continue: byte ranges, and a strong entity tag for `If-Range`.
    /// if response.headerFields["Accept-Ranges"] == "bytes", response.headerFields["ETag"]?.hasPrefix("W/") == false {
    ///     response.body.endWhenReaderFallsBehind()
    /// }
    /// for try await chunk in response.body { try file.write(contentsOf: chunk) }
    /// ```
    public func endWhenReaderFallsBehind() {
        control?.endWhenReaderFallsBehind()
    }

    /// Reads the body to its end and drops it, so that its connection can serve the next request:
    /// for a middleware that answers with something else (a redirect's body, a `304` it
    /// replaces). A body longer than 64 KiB is let go after that instead, which closes its
    /// connection. An error ends it quietly.
    public func drain() async {
        var count = 0
        do {
            for try await chunk in self {
                count += chunk.count
                if count > 64 * 1024 { break }
            }
        } catch {}
    }

    /// No bytes at all.
    public static let empty = ResponseBody(Data())

    /// An iterator over the chunks as the engine delivers them.
    public func makeAsyncIterator() -> Iterator {
        Iterator(nextChunk: makeNext())
    }

    /// Hands out the chunks of a ``ResponseBody``.
    public struct Iterator: AsyncIteratorProtocol {
        let nextChunk: () async throws -> Data?

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
