import Foundation

/// A streamed body that tells a request's observers how it ended: the bytes the caller read,
/// and `finished` once, when the body ends, fails, or is released before its end.
///
/// Read by one iterator at a time, one `next()` after the other, as ``ExchangeBody`` is (hence
/// `@unchecked Sendable`).
final class ObservedBody: @unchecked Sendable {
    private let trace: RequestTrace
    private let base: ResponseBody
    private var iterator: ResponseBody.Iterator?
    private var received: Int64 = 0
    private var isOver = false

    init(_ base: ResponseBody, trace: RequestTrace) {
        self.base = base
        self.trace = trace
    }

    deinit {
        if !isOver { end(error: RequestError.fatal(.unexpected(CancellationError()))) }
    }

    /// The body for the caller.
    var body: ResponseBody {
        ResponseBody(makeNext: { [self] in { try await self.next() } })
    }

    private func next() async throws -> Data? {
        guard !isOver else { return nil }
        var chunks = iterator ?? base.makeAsyncIterator()
        do {
            let chunk = try await chunks.next()
            iterator = chunks
            guard let chunk else {
                end(error: nil)
                return nil
            }
            received += Int64(chunk.count)
            return chunk
        } catch {
            end(error: error.asRequestError)
            throw error
        }
    }

    private func end(error: RequestError?) {
        isOver = true
        trace.bodyReceived(count: received)
        trace.finished(error: error)
    }
}
