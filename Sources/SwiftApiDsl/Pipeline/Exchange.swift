import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request on the wire, the last step of the middleware chain: the transport's exchange
/// under an ``ExchangeControl`` that enforces the idle timeout and the caller's cancellation
/// the same way for every engine.
///
/// Its response's body is an ``ExchangeBody``: whoever reads it (the pipeline, a middleware, the
/// caller of `stream()`) reads under that control, and dropping it before the end closes the
/// connection. An error while sending or reading becomes a ``RequestError/transport(_:_:)``
/// that carries the reason of an abort (`URLError(.timedOut)`, `CancellationError`) rather than
/// what the engine made of it.
enum Exchange {
    /// The step that sends `request` through the transport of `call` and waits for the head.
    /// `uploadProgress` is told of the bytes the transport reports sent.
    static func send(in call: Middleware.Call, uploadProgress: ProgressReporter?) -> Middleware.Next {
        { request in
            let control = ExchangeControl(idleTimeout: request.timeoutInterval, url: request.url, uploadProgress: uploadProgress,
                                          takesBodyAsItArrives: call.takesBodyAsItArrives)
            IdleTicker.shared.watch(control)
            do {
                var response = try await withTaskCancellationHandler {
                    try await call.transport.send(request, control: control)
                } onCancel: {
                    control.abort(CancellationError())
                }
                control.noteActivity()
                try response.checkStatus()
                if response.body.data != nil {
                    // A body given whole (a mock's, a small answer an engine gathered) leaves
                    // nothing to time or to cancel: the exchange ends here. Its control still
                    // tells the observers when the head came.
                    end(control)
                    response.body.control = control
                } else {
                    response.body = ExchangeBody(response.body, request: request, control: control).body
                }
                response.sentRequest = request
                response.source = .network // what an engine says of itself does not count
                return response
            } catch {
                let failure = failure(error, of: request, control: control)
                end(control)
                throw failure
            }
        }
    }

    /// The first bytes of `body`, up to about `limit` (the whole body when it is shorter), and
    /// the body to read instead of `body`: those bytes again, then the rest.
    static func prefetch(_ body: ResponseBody, upTo limit: Int) async throws -> (Data, ResponseBody) {
        var iterator = body.makeAsyncIterator()
        var data = Data()
        while data.count <= limit {
            guard let chunk = try await iterator.next() else { return (data, ResponseBody(data)) }
            data.append(chunk)
        }
        return (data, BodyTap(iterator, ahead: data, control: body.control).body)
    }

    /// Stops watching the exchange and releases the transport's abort closure.
    static func end(_ control: ExchangeControl) {
        IdleTicker.shared.unwatch(control)
        control.close()
    }

    /// What the caller sees of `error`: the reason of an abort first, a ``RequestError`` as it
    /// is, anything else as ``RequestError/transport(_:_:)``.
    static func failure(_ error: any Error, of request: TransportRequest, control: ExchangeControl) -> any Error {
        if let reason = control.abortReason { return RequestError.transport(request.urlRequest, reason) }
        return error as? RequestError ?? RequestError.transport(request.urlRequest, error)
    }
}

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
    let control: ExchangeControl
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
