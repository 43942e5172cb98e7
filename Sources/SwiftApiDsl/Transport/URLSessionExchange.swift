import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One URLSession task seen as an exchange: the caller waiting for the head, then the body's
/// chunks, fed by the session's delegate queue.
///
/// The body is buffered without limit: URLSession can only be slowed with `suspend()`, which
/// the previous measurements found much worse than the memory it saves. Dropping the body
/// (or an abort by the pipeline) cancels the task.
final class URLSessionExchange: Sendable {
    private typealias HeadContinuation = CheckedContinuation<TransportResponse, any Error>

    private struct State {
        var head: HeadContinuation?
        var body: AsyncThrowingStream<Data, any Error>.Continuation?
        /// The task was cancelled only to end an authentication challenge (Linux); its response stands.
        var challengeCancelled = false
    }

    let control: ExchangeControl
    private let request: URLRequest
    private let temporaryFile: URL?
    private let state = Locked(State())

    /// An exchange for `request`; `temporaryFile` (an encoded form) is removed when it ends.
    init(request: URLRequest, control: ExchangeControl, temporaryFile: URL?) {
        self.request = request
        self.control = control
        self.temporaryFile = temporaryFile
    }

    /// Records the waiting caller.
    func begin(continuation: CheckedContinuation<TransportResponse, any Error>) {
        state.withLock { $0.head = continuation }
    }

    func noteChallengeCancelled() {
        state.withLock { $0.challengeCancelled = true }
    }

    /// The head has arrived: the caller gets it, with a body that the next callbacks fill.
    func receive(_ response: URLResponse) {
        // Only the first head counts: a second one (an interim response) must not orphan the body.
        guard let http = response as? HTTPURLResponse, state.withLock({ $0.body == nil }) else { return }
        if Self.hasConflictingLengths(http) {
            // RFC 9112 §6.3: a message whose Content-Length values differ is unrecoverable.
            // URLSession on Linux reads it anyway, truncated; AsyncHTTPClient refuses it.
            let failure = URLSessionFailure.failure(.badServerResponse, for: request, underlying: nil)
            fail(failure)
            control.abort(failure)
            return
        }
        let (stream, body) = AsyncThrowingStream<Data, any Error>.makeStream()
        let control = self.control
        body.onTermination = { termination in
            if case .cancelled = termination { control.abort(CancellationError()) }
        }
        let head = state.withLock { state in
            defer { state.head = nil }
            state.body = body
            return state.head
        }
        head?.resume(returning: TransportResponse(http, body: ResponseBody(stream)))
    }

    /// Whether `response` announces two different `Content-Length` values (Foundation joins
    /// repeated fields with commas).
    private static func hasConflictingLengths(_ response: HTTPURLResponse) -> Bool {
        guard let value = response.value(forHTTPHeaderField: "Content-Length"), value.contains(",") else { return false }
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

    func receive(_ data: Data) {
        _ = state.withLock { $0.body }?.yield(data)
    }

    /// Ends the body, or fails the caller still waiting for the head.
    func complete(response: URLResponse?, error: (any Error)?) {
        if state.withLock({ $0.head != nil }), let response, response is HTTPURLResponse {
            receive(response)
        }
        let (head, body, challengeCancelled) = state.withLock { state in
            defer {
                state.head = nil
                state.body = nil
            }
            return (state.head, state.body, state.challengeCancelled)
        }
        if let temporaryFile { try? FileManager.default.removeItem(at: temporaryFile) }
        let failure = error.map { URLSessionFailure.map($0, for: request) }
        if let head {
            head.resume(throwing: failure ?? RequestError.fatal(.notHTTPResponse(request, response)))
        } else if let failure, !challengeCancelled {
            body?.finish(throwing: failure)
        } else {
            body?.finish()
        }
    }
}
