import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One URLSession task seen as an exchange: the caller waiting for the head, then the body's
/// chunks, fed by the session's delegate queue.
///
/// URLSession cannot be slowed (on Linux `suspend()` does not pause libcurl, and a wait in a
/// callback holds every session of the process): past ``backlogLimit`` bytes queued unread, the
/// exchange tells the pipeline (``ExchangeControl/readerFellBehind()``), and a download that can
/// be continued with `Range` ends it and continues later; any other body is queued without limit.
/// Dropping the body (or an abort by the pipeline) cancels the task.
final class URLSessionExchange: Sendable {
    private typealias HeadContinuation = CheckedContinuation<TransportResponse, any Error>

    private struct State {
        var head: HeadContinuation?
        var body: ResponseChunkQueue?
        /// The head received, until the caller gets it (``deliverHead()``).
        var received: TransportResponse?
        /// The task was cancelled only to end an authentication challenge (Linux); its response stands.
        var challengeCancelled = false
    }

    let control: ExchangeControl
    private let request: URLRequest
    private let temporaryFile: URL?
    /// The request's TLS settings, which answer its TLS challenges (Apple platforms).
    let tls: TLSSettings?
    private let state = Locked(State())

    /// An exchange for `request`; `temporaryFile` (an encoded form) is removed when it ends.
    init(request: URLRequest, control: ExchangeControl, temporaryFile: URL?, tls: TLSSettings? = nil) {
        self.request = request
        self.control = control
        self.temporaryFile = temporaryFile
        self.tls = tls
    }

    /// Records the waiting caller.
    func begin(continuation: CheckedContinuation<TransportResponse, any Error>) {
        state.withLock { $0.head = continuation }
    }

    /// Orders everything the delegate queue did before it handed over the head (making the
    /// body's queue among it) before what the caller does next; see `Locked.synchronize()`.
    func synchronize() {
        state.synchronize()
    }

    func noteChallengeCancelled() {
        state.withLock { $0.challengeCancelled = true }
    }

    /// The head has arrived, with a body that the next callbacks fill. The caller gets it from
    /// ``deliverHead()``, which the delegate queues behind the callbacks already waiting (see
    /// `URLSessionTransportDelegate`), or from ``complete(response:error:)``.
    func receive(_ response: URLResponse) {
        // Only the first head counts: a second one (an interim response) must not orphan the body.
        guard let http = response as? HTTPURLResponse, state.withLock({ $0.body == nil }) else { return }
        // Dropping the body or cancelling its reader aborts the exchange through the pipeline
        // (`Exchange`), which cancels the task.
        let body = ResponseChunkQueue(bufferLimit: Self.backlogLimit)
        let received = TransportResponse(http, body: body.body)
        if Self.hasConflictingLengths(received.headerFields) {
            // RFC 9112 §6.3: a message whose Content-Length values differ is unrecoverable.
            // URLSession on Linux reads it anyway, truncated; AsyncHTTPClient refuses it.
            let failure = URLSessionFailure.failure(.badServerResponse, for: request, underlying: nil)
            fail(failure)
            control.abort(failure)
            return
        }
        state.withLock { state in
            state.body = body
            state.received = received
        }
    }

    /// Hands the head received to the waiting caller, once.
    func deliverHead() {
        let delivery: (HeadContinuation, TransportResponse)? = state.withLock { state in
            guard let head = state.head, let received = state.received else { return nil }
            state.head = nil
            state.received = nil
            return (head, received)
        }
        delivery.map { head, response in head.resume(returning: response) }
    }

    /// Whether `fields` announce two different `Content-Length` values (Foundation joins
    /// repeated fields with commas). Read from the fields already converted: asking the
    /// `HTTPURLResponse` again costs a case-insensitive search through `NSString` on Linux.
    private static func hasConflictingLengths(_ fields: HeaderFields) -> Bool {
        // Bytes, not `contains(",")`: on Linux that overload goes through `NSString`, a few µs a response.
        guard let value = fields[HeaderField.contentLength.rawValue], value.utf8.contains(UInt8(ascii: ",")) else { return false }
        return Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }).count > 1
    }

    /// Fails the caller still waiting for the head with `error`; later callbacks find no one.
    func fail(_ error: any Error) {
        state.withLock { $0.head.take() }?.resume(throwing: error)
    }

    func receive(_ data: Data) {
        guard let body = state.withLock({ $0.body }), !body.push(data) else { return }
        control.readerFellBehind()
    }

    /// How many bytes of a body may wait unread before the pipeline hears of it: 16 MiB.
    static let backlogLimit = 16 << 20

    /// Ends the body at an abort: the reader gets what was queued, then the error. Nothing
    /// more is queued: on Linux the task goes on delivering for a while after `cancel()` (about
    /// 20 ms on loopback, where that was up to 32 MiB).
    func stopReceiving(_ reason: any Error) {
        state.withLock { $0.body }?.finish(throwing: reason)
    }

    /// Ends the body, then hands over the head if the caller has not had it yet (a small body
    /// is then read without waiting), or fails the caller when no head came.
    func complete(response: URLResponse?, error: (any Error)?) {
        if state.withLock({ $0.head != nil && $0.received == nil }), let response, response is HTTPURLResponse {
            receive(response)
        }
        let (body, challengeCancelled) = state.withLock { ($0.body.take(), $0.challengeCancelled) }
        if let temporaryFile { try? FileManager.default.removeItem(at: temporaryFile) }
        let failure = error.map { URLSessionFailure.map($0, for: request) }
        body?.finish(throwing: challengeCancelled ? nil : failure)
        deliverHead()
        state.withLock { $0.head.take() }?.resume(throwing: failure ?? RequestError.fatal(.notHTTPResponse(request, response)))
    }
}
