import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One URLSession task seen as an exchange: the caller waiting for the head, then the body's
/// chunks, fed by the session's delegate queue.
///
/// The body is buffered without limit, except a download's on Linux (``receive(_:)-(Data)``).
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
        /// A download's writer let a wait time out: its body is not paced until it catches up.
        var writerBehind = false
    }

    let control: ExchangeControl
    private let request: URLRequest
    private let temporaryFile: URL?
    /// The most body bytes queued before ``receive(_:)-(Data)`` waits; `nil` for no limit.
    private let bufferLimit: Int?
    private let state = Locked(State())

    /// The limit of a download's queue on Linux, where the delegate callback is the only brake.
    static let downloadBufferLimit = 4 << 20

    /// An exchange for `request`; `temporaryFile` (an encoded form) is removed when it ends.
    /// A download's body (`isDownload`) is paced on Linux (``receive(_:)-(Data)``).
    init(request: URLRequest, control: ExchangeControl, temporaryFile: URL?, isDownload: Bool = false) {
        self.request = request
        self.control = control
        self.temporaryFile = temporaryFile
        #if canImport(FoundationNetworking)
        self.bufferLimit = isDownload ? Self.downloadBufferLimit : nil
        #else
        self.bufferLimit = nil
        #endif
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
        let body = ResponseChunkQueue(bufferLimit: bufferLimit)
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
        guard let value = fields[HeaderField.contentLength.rawValue], value.contains(",") else { return false }
        let lengths = Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        return lengths.count > 1
    }

    /// Fails the caller still waiting for the head with `error`; later callbacks find no one.
    private func fail(_ error: any Error) {
        let head = state.withLock { state in
            defer { state.head = nil }
            return state.head
        }
        head?.resume(throwing: error)
    }

    /// Queues a chunk of the body. When it fills a download's queue, the callback waits until
    /// the writer has taken a chunk, for at most ``longestWait``.
    ///
    /// On Linux nothing else slows URLSession: `suspend()` does not pause libcurl, and corelibs
    /// never asks it to pause a receive. But this callback runs inline (`InlineDelegateQueue`)
    /// inside libcurl's write callback, on the session's only queue: while it waits libcurl
    /// reads nothing, the socket's buffer fills and TCP slows the server. The session's other
    /// tasks wait as long; a `stream()`, which its caller paces, never waits here.
    ///
    /// The writer is a Swift task, and a task that creates, resumes or cancels a URLSession task
    /// blocks its thread on that same queue: with every thread of the cooperative pool blocked so,
    /// the writer cannot run. A wait that times out therefore lets the body in unpaced until the
    /// writer has drained the queue below its limit again (Docs/Performance.md).
    func receive(_ data: Data) {
        guard let body = state.withLock({ $0.body }), !body.push(data), !state.withLock({ $0.writerBehind }) else { return }
        let drained = DispatchSemaphore(value: 0)
        body.whenDrained { drained.signal() }
        guard drained.wait(timeout: .now() + Self.longestWait) == .timedOut else { return }
        state.withLock { $0.writerBehind = true }
        body.whenDrained { self.state.withLock { $0.writerBehind = false } }
    }

    /// The longest a download's chunk waits for the writer.
    static let longestWait = DispatchTimeInterval.milliseconds(250)

    /// The body bytes queued and not read yet (tests check the bound).
    var queuedBytes: Int { state.withLock { $0.body }?.queuedBytes ?? 0 }

    /// Ends the body, then hands over the head if the caller has not had it yet (a small body
    /// is then read without waiting), or fails the caller when no head came.
    func complete(response: URLResponse?, error: (any Error)?) {
        if state.withLock({ $0.head != nil && $0.received == nil }), let response, response is HTTPURLResponse {
            receive(response)
        }
        // The queue stays: no callback follows this one, and tests read what it holds.
        let (body, challengeCancelled) = state.withLock { ($0.body, $0.challengeCancelled) }
        if let temporaryFile { try? FileManager.default.removeItem(at: temporaryFile) }
        let failure = error.map { URLSessionFailure.map($0, for: request) }
        body?.finish(throwing: challengeCancelled ? nil : failure)
        deliverHead()
        let head = state.withLock { state in
            defer { state.head = nil }
            return state.head
        }
        head?.resume(throwing: failure ?? RequestError.fatal(.notHTTPResponse(request, response)))
    }
}
