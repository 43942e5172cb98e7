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
    /// The step that sends `request` through `transport` and waits for the head.
    /// `uploadProgress` is told of the bytes the transport reports sent.
    static func send(through transport: any HTTPTransport, uploadProgress: ProgressReporter?) -> Middleware.Next {
        { request in
            let control = ExchangeControl(idleTimeout: request.timeoutInterval, url: request.url, uploadProgress: uploadProgress)
            IdleTicker.shared.watch(control)
            do {
                var response = try await withTaskCancellationHandler {
                    try await transport.send(request, control: control)
                } onCancel: {
                    control.abort(CancellationError())
                }
                control.noteActivity()
                try response.checkStatus()
                if response.body.data != nil {
                    // A body given whole (a mock's) leaves nothing to time or to cancel: the
                    // exchange ends here.
                    end(control)
                } else {
                    response.body = ExchangeBody(response.body, request: request, control: control).body
                }
                response.sentRequest = request
                return response
            } catch {
                let failure = failure(error, of: request, control: control)
                end(control)
                throw failure
            }
        }
    }

    /// Reads and keeps a small body (a redirect's, a retried answer's) so the connection can
    /// serve the next request; a larger one is cut off after 64 KiB. Errors end it quietly.
    static func drain(_ body: ResponseBody) async -> Data {
        var kept = Data()
        do {
            for try await chunk in body {
                kept.append(chunk)
                if kept.count > 64 * 1024 { break }
            }
        } catch {}
        return kept
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
        return (data, BodyTap(iterator, ahead: data).body)
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
        if error is RequestError { return error }
        return RequestError.transport(request.urlRequest, error)
    }
}
