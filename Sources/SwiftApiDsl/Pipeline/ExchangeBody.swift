import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The body of one exchange as anyone reads it: chunk by chunk from the engine, under the
/// exchange's control. The one wrapper between an engine's body and its readers.
///
/// Each read runs under the reader's cancellation (cancelling the reading task closes the
/// connection) and the idle timeout, which is paused while nobody is asking for a chunk (the
/// caller of a stream may take its time). The exchange is over at the end of the body, at the
/// first error, or when the body and its iterator are released before the end, which aborts
/// the exchange and closes the connection.
///
/// A body is read by one iterator at a time, as `AsyncSequence` expects; the state below is
/// touched only by that iterator's `next()`, one call after the other (hence `@unchecked`).
final class ExchangeBody: @unchecked Sendable {
    private let request: TransportRequest
    private let control: ExchangeControl
    private let engineBody: ResponseBody
    private var chunks: ResponseBody.Iterator?
    private var isOver = false

    init(_ engineBody: ResponseBody, request: TransportRequest, control: ExchangeControl) {
        self.engineBody = engineBody
        self.request = request
        self.control = control
        control.setPaused(true)
    }

    deinit {
        if !isOver { abandon() }
    }

    /// The body for its reader.
    var body: ResponseBody {
        ResponseBody(makeNext: { [self] in { try await self.next() } }, exchange: self)
    }

    /// Hands each chunk to `consume`, which returns `false` to stop (the exchange is then
    /// aborted); returns whether the body was read to its end. One loop under one cancellation
    /// handler: the pipeline's way to read a body into memory or a file, a chunk costing what
    /// the engine's own sequence costs. The exchange is over when it returns or throws.
    func read(_ consume: (Data) throws -> Bool) async throws -> Bool {
        guard !isOver else { return true }
        var iterator = chunks ?? engineBody.makeAsyncIterator()
        control.setPaused(false)
        do {
            let complete = try await withTaskCancellationHandler {
                while let chunk = try await iterator.next() {
                    control.noteActivity()
                    guard try consume(chunk) else { return false }
                }
                return true
            } onCancel: { [control] in
                control.abort(CancellationError())
            }
            guard complete else {
                abandon()
                return false
            }
            try finish()
            return true
        } catch {
            throw failure(error)
        }
    }

    /// Ends the exchange at the end of the body. A sequence may end quietly when its task is
    /// cancelled (AsyncThrowingStream does): a body cut short by an abort is a failure, never a
    /// shorter success.
    private func finish() throws {
        if let reason = control.abortReason { throw reason }
        isOver = true
        Exchange.end(control)
    }

    /// What the reader sees of `error`, the exchange ended (see ``Exchange/failure(_:of:control:)``).
    private func failure(_ error: any Error) -> any Error {
        guard !isOver else { return error }
        let failure = Exchange.failure(error, of: request, control: control)
        abandon()
        return failure
    }

    /// Ends the exchange without reading the rest of its body: the connection is closed.
    private func abandon() {
        isOver = true
        control.abort(CancellationError())
        Exchange.end(control)
    }

    private func next() async throws -> Data? {
        guard !isOver else { return nil }
        var iterator = chunks ?? engineBody.makeAsyncIterator()
        control.setPaused(false)
        do {
            let chunk = try await withTaskCancellationHandler {
                try await iterator.next()
            } onCancel: { [control] in
                control.abort(CancellationError())
            }
            chunks = iterator
            guard let chunk else {
                try finish()
                return nil
            }
            control.setPaused(true)
            return chunk
        } catch {
            throw failure(error)
        }
    }
}
