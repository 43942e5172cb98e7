import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One exchange as the pipeline drives it: started through the transport, its head received,
/// its body read here, under the idle timeout and the calling task's cancellation.
///
/// Every way of reading the body ends the exchange (``finish()``); an error while sending or
/// reading becomes a ``RequestError/transport(_:_:)`` that carries the reason of an abort
/// (`URLError(.timedOut)`, `CancellationError`) rather than what the engine made of it.
struct Exchange {
    /// The request sent.
    let request: TransportRequest
    /// The transport's answer: head and body.
    let response: TransportResponse
    /// The head, its Foundation form made on demand.
    let head: ResponseHead
    /// The pipeline's handle on the exchange.
    let control: ExchangeControl

    /// The body's length as announced, when it is what arrives: a `Content-Length` without a
    /// `Content-Encoding` (engines decode gzip and deflate, so the count would not match).
    var expectedLength: Int64? {
        let fields = response.headerFields
        guard fields[HeaderField.contentEncoding.rawValue] == nil else { return nil }
        return fields[HeaderField.contentLength.rawValue].flatMap { Int64($0) }
    }

    /// Sends `request` through `middlewares`, then `transport`, and waits for the response head.
    /// `uploadProgress` is told of the bytes the transport reports sent; `trace` of the request
    /// as it reaches the transport and of the head as it leaves it.
    ///
    /// The middlewares run inside the exchange: its idle timeout and the caller's cancellation
    /// cover them, and each request a middleware sends on goes to the transport with the same
    /// control (the body of a response it drops is aborted with the exchange).
    static func start(_ request: TransportRequest, through transport: any HTTPTransport, middlewares: [Middleware] = [],
                      uploadProgress: ProgressReporter? = nil, trace: RequestTrace? = nil) async throws -> Exchange {
        let control = ExchangeControl(idleTimeout: request.timeoutInterval, url: request.url,
                                      uploadProgress: uploadProgress)
        IdleTicker.shared.watch(control)
        // The request the transport last received: what a middleware sent on, when it changed it.
        let sent = Locked(request)
        let send: Middleware.Next = { request in
            if !middlewares.isEmpty { sent.withLock { $0 = request } }
            trace?.sending(request) // observe: bytes sent
            let response = try await transport.send(request, control: control)
            return response
        }
        do {
            let response = try await withTaskCancellationHandler {
                try await middlewares.isEmpty ? send(request) : Middleware.chain(middlewares, around: send)(request)
            } onCancel: {
                control.abort(CancellationError())
            }
            control.noteActivity()
            // A status HTTP cannot have (and that Foundation may refuse to hold) is a bad answer.
            guard (100...999).contains(response.statusCode) else { throw URLError(.badServerResponse) }
            let request = middlewares.isEmpty ? request : sent.withLock { $0 }
            let exchange = Exchange(request: request, response: response, head: response.head(for: request.url), control: control)
            trace?.headReceived(exchange.head, for: request) // observe: head
            return exchange
        } catch {
            let failure = Self.failure(error, of: request, control: control)
            end(control)
            throw failure
        }
    }

    /// The whole body in memory; at most `limit` bytes when a limit is given.
    ///
    /// Beyond the limit, reading stops and the exchange is aborted: `nil` is returned.
    func collect(limit: Int? = nil, progress: ProgressReporter? = nil) async throws -> Data? {
        var data = Data()
        let complete = try await read(progress: progress) { chunk in
            if let limit, data.count + chunk.count > limit { return false }
            data.append(chunk)
            return true
        }
        return complete ? data : nil
    }

    /// Reads and drops a small body (a redirect's), so the connection can serve the next
    /// request; a larger one is cut off. Errors are of no interest here.
    func discard() async {
        _ = try? await collect(limit: 64 * 1024)
    }

    /// Ends the exchange without reading its body: the connection is closed.
    func abandon() {
        control.abort(CancellationError())
        Self.end(control)
    }

    /// Marks the exchange as over after its body was read to the end.
    func finish() {
        Self.end(control)
    }

    /// Hands each chunk to `consume`, which returns `false` to stop; returns whether the body
    /// was read to its end, and then tells `progress` it is complete. The exchange is over when
    /// it returns or throws.
    @discardableResult
    func read(progress: ProgressReporter? = nil, _ consume: (Data) throws -> Bool) async throws -> Bool {
        defer { Self.end(control) }
        do {
            return try await withTaskCancellationHandler {
                for try await chunk in response.body {
                    control.noteActivity()
                    guard try consume(chunk) else {
                        control.abort(CancellationError())
                        return false
                    }
                    progress?.advance(by: chunk.count)
                }
                // A sequence may end quietly when its task is cancelled (AsyncThrowingStream
                // does): a body cut short by an abort is a failure, never a shorter success.
                if let reason = control.abortReason { throw reason }
                progress?.finish()
                return true
            } onCancel: {
                control.abort(CancellationError())
            }
        } catch {
            throw Self.failure(error, of: request, control: control)
        }
    }

    /// Stops watching the exchange and releases the transport's abort closure.
    private static func end(_ control: ExchangeControl) {
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
