import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The body of a streamed response as the caller reads it, chunk by chunk, from the exchange.
///
/// Each read runs under the caller's cancellation (cancelling the reading task closes the
/// connection) and the idle timeout, which is paused while the caller is not asking for a
/// chunk. The size limit counts what was handed out. When the body and its iterator are
/// released before the end, the exchange is aborted and the connection closed.
///
/// A body is read by one iterator at a time, as `AsyncSequence` expects; the state below is
/// touched only by that iterator's `next()`, one call after the other (hence `@unchecked`).
final class StreamedBody: @unchecked Sendable {
    private let exchange: Exchange
    private let limit: Int?
    private let progress: ProgressReporter?
    private var chunks: ResponseBody.Iterator?
    private var received = 0
    private var isOver = false

    /// `progress` is told of each chunk as the caller takes it, and of the end.
    init(_ exchange: Exchange, limit: Int?, progress: ProgressReporter?) {
        self.exchange = exchange
        self.limit = limit
        self.progress = progress
        exchange.control.setPaused(true)
    }

    deinit {
        if !isOver { exchange.abandon() }
    }

    /// The body for the caller.
    var body: ResponseBody {
        ResponseBody(makeNext: { [self] in { try await self.next() } })
    }

    private func next() async throws -> Data? {
        guard !isOver else { return nil }
        let control = exchange.control
        var iterator = chunks ?? exchange.response.body.makeAsyncIterator()
        control.setPaused(false)
        do {
            let chunk = try await withTaskCancellationHandler {
                try await iterator.next()
            } onCancel: {
                control.abort(CancellationError())
            }
            chunks = iterator
            guard let chunk else {
                if let reason = control.abortReason { throw reason }
                isOver = true
                exchange.finish()
                progress?.finish()
                return nil
            }
            control.setPaused(true)
            received += chunk.count
            if let limit, received > limit {
                isOver = true
                exchange.abandon()
                throw RequestError.transport(exchange.request.urlRequest, ResponseTooLargeError(limit: limit))
            }
            progress?.advance(by: chunk.count)
            return chunk
        } catch {
            guard !isOver else { throw error }
            isOver = true
            let failure = Exchange.failure(error, of: exchange.request, control: control)
            exchange.abandon()
            throw failure
        }
    }
}
