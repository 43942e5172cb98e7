import Foundation

/// A body handed on chunk by chunk with a look at each chunk and one word at its end: the one
/// wrapper that counts, limits, observes, stores and reads ahead (bytes read ahead go out first).
///
/// `onChunk` sees each chunk before the reader does; what it throws fails the body, and the rest
/// is let go, which closes the connection. `onEnd` is told once: the body ended, failed, or was
/// released before its end. Read by one iterator at a time, one `next()` after the other, as
/// ``ExchangeBody`` is (hence `@unchecked Sendable`).
final class BodyTap: @unchecked Sendable {
    /// How a tapped body ended.
    enum End {
        case finished
        case failed(any Error)
        case released
    }

    private var chunks: ResponseBody.Iterator?
    private var ahead: Data?
    private let onChunk: (Data) throws -> Void
    private let onEnd: (End) -> Void
    private var isOver = false
    /// The exchange the tapped body reads from, if any.
    private let control: ExchangeControl?

    /// Taps the body `chunks` reads, whose first bytes, `ahead`, were read already; `control`
    /// is that body's exchange, if any.
    init(_ chunks: ResponseBody.Iterator, ahead: Data? = nil, control: ExchangeControl?,
         onChunk: @escaping (Data) throws -> Void = { _ in }, onEnd: @escaping (End) -> Void = { _ in }) {
        self.chunks = chunks
        self.ahead = ahead
        self.control = control
        self.onChunk = onChunk
        self.onEnd = onEnd
    }

    /// Taps `base`.
    convenience init(_ base: ResponseBody, onChunk: @escaping (Data) throws -> Void = { _ in },
                     onEnd: @escaping (End) -> Void = { _ in }) {
        self.init(base.makeAsyncIterator(), control: base.control, onChunk: onChunk, onEnd: onEnd)
    }

    deinit {
        if !isOver { onEnd(.released) }
    }

    /// The body for the reader.
    var body: ResponseBody {
        ResponseBody(makeNext: { [self] in { try await self.next() } }, control: control)
    }

    private func next() async throws -> Data? {
        guard !isOver, var iterator = chunks else { return nil }
        do {
            let chunk: Data?
            if let first = ahead.flatMap({ $0.isEmpty ? nil : $0 }) {
                chunk = first
            } else {
                chunk = try await iterator.next()
                chunks = iterator
            }
            ahead = nil
            guard let chunk else {
                end(.finished)
                return nil
            }
            try onChunk(chunk)
            return chunk
        } catch {
            end(.failed(error))
            throw error
        }
    }

    private func end(_ end: End) {
        isOver = true
        chunks = nil // lets the exchange's body go
        onEnd(end)
    }
}

extension ResponseBody {
    /// This body with a look at it as it is read: `onChunk` sees each chunk before the reader
    /// does, and `onEnd` is told once whether the reader got the whole body (`true`) or it
    /// failed or was dropped before its end (`false`). What `onChunk` throws fails the body.
    ///
    /// ```swift
    /// let counting = Middleware("count") { request, next in
    ///     var response = try await next(request)
    ///     let total = Counter()
    ///     response.body = response.body.tapped { total.add($0.count) } onEnd: { whole in
    ///         if whole { print(request.url?.path ?? "", total.value, "bytes") }
    ///     }
    ///     return response
    /// }
    /// ```
    /// The timeouts, cancellation and pacing of the body's exchange still apply to the tapped body.
    public func tapped(_ onChunk: @escaping @Sendable (Data) throws -> Void,
                       onEnd: @escaping @Sendable (_ whole: Bool) -> Void) -> ResponseBody {
        BodyTap(self, onChunk: onChunk, onEnd: { end in
            if case .finished = end { onEnd(true) } else { onEnd(false) }
        }).body
    }
}
